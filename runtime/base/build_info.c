#define _GNU_SOURCE /* dl_iterate_phdr */
#include "build_info.h"

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cms.h"
#include "gg_config.h"

const char *gg_build_version(void) { return GG_VERSION; }

void gg_build_solver(char *buf, size_t size)
{
#if GG_HAVE_SAT
    if (gg_sat_available())
        snprintf(buf, size, "CryptoMiniSat %s", gg_cms_version());
    else
        snprintf(buf, size, "CryptoMiniSat, not loaded: %s",
                 gg_sat_unavailable_why());
#else
    snprintf(buf, size, "none");
#endif
}

typedef struct id_search {
    uintptr_t addr; /* an address inside the object wanted */
    char *hex;
    size_t size;
    bool found;
} id_search;

/* The NT_GNU_BUILD_ID note among a PT_NOTE segment's notes, as hex. */
static bool note_id(const char *p, size_t len, char *hex, size_t size)
{
    size_t at = 0;
    while (at + sizeof(ElfW(Nhdr)) <= len) {
        const ElfW(Nhdr) *n = (const void *)(p + at);
        size_t name = (n->n_namesz + 3) & ~(size_t)3;
        size_t desc = (n->n_descsz + 3) & ~(size_t)3;
        const unsigned char *d =
            (const unsigned char *)p + at + sizeof *n + name;
        if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
            !memcmp(p + at + sizeof *n, "GNU", 4) &&
            2 * (size_t)n->n_descsz < size) {
            for (size_t i = 0; i < n->n_descsz; i++)
                snprintf(hex + 2 * i, 3, "%02x", d[i]);
            return true;
        }
        at += sizeof *n + name + desc;
    }
    return false;
}

static int find_id(struct dl_phdr_info *info, size_t sz, void *ctx)
{
    id_search *s = ctx;
    (void)sz;
    bool mine = false;
    for (int i = 0; i < info->dlpi_phnum && !mine; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        mine = ph->p_type == PT_LOAD && s->addr >= lo &&
               s->addr < lo + ph->p_memsz;
    }
    if (!mine)
        return 0;
    for (int i = 0; i < info->dlpi_phnum && !s->found; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_NOTE)
            s->found = note_id((const char *)(info->dlpi_addr + ph->p_vaddr),
                               ph->p_filesz, s->hex, s->size);
    }
    return 1; /* the object is found, with or without its note */
}

bool gg_build_id(char *hex, size_t size)
{
    id_search s = {(uintptr_t)&gg_build_id, hex, size, false};
    if (size)
        hex[0] = 0;
    dl_iterate_phdr(find_id, &s);
    return s.found;
}
