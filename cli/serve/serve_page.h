/* golgen serve: the page (cli/serve/page.html), embedded at build time
 * by templates/embed.py. */
#ifndef GG_SERVE_PAGE_H
#define GG_SERVE_PAGE_H

#include <stddef.h>

extern const char gg_serve_page[];
extern const size_t gg_serve_page_len;

#endif
