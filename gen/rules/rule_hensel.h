/* gen/rules/rule.c's helpers for the table rules: Hensel's isotropic
 * non-totalistic notation and Golly's MAP rules (gen/rules/rule_hensel.c),
 * and Wolfram's elementary rules as Golly runs them (rule_wolfram.c). The
 * parsers read the transition text[0..n) (the topology suffix is
 * gen/rules/rule.c's) into rule's table, notation and Golly digits. */
#ifndef GG_RULE_HENSEL_H
#define GG_RULE_HENSEL_H

#include <stdbool.h>
#include <stddef.h>

#include "rule.h"

/* text[0..n) uses a Hensel letter or '-' (B and S aside). */
bool gg_rule_text_is_hensel(const char *text, size_t n);

int gg_rule_parse_hensel(const char *text, size_t n, gg_rule *rule,
                         gg_err *err);
int gg_rule_parse_map(const char *text, size_t n, gg_rule *rule,
                      gg_err *err);

/* text[0..n) is W and digits: one of Wolfram's elementary rules. */
bool gg_rule_text_is_wolfram(const char *text, size_t n);
int gg_rule_parse_wolfram(const char *text, size_t n, gg_rule *rule,
                          gg_err *err);

/* The fix for a letter a neighbour count does not take, for messages:
 * which letters it does take ("a count of 2 takes the Hensel letters c e
 * k a i n, ..."). Returns snprintf's count. */
int gg_rule_hensel_letter_fix(int count, char *buf, size_t size);

/* Golly's canonical transition: B2n3/S23-q, MAP<base64>. */
void gg_rule_format_hensel(const gg_rule *rule, char *buf, size_t size);
void gg_rule_format_map(const gg_rule *rule, char *buf, size_t size);
void gg_rule_format_wolfram(const gg_rule *rule, char *buf, size_t size);

#endif
