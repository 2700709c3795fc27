#!/usr/bin/env python3
"""Turn a template file into a C byte array so the installed golgen binary
carries its templates: embed.py INPUT OUTPUT SYMBOL."""
import sys

src, out, sym = sys.argv[1], sys.argv[2], sys.argv[3]
data = open(src, 'rb').read()
lines = []
for i in range(0, len(data), 16):
    lines.append('    ' + ', '.join('0x%02x' % b for b in data[i:i + 16]) + ',')
with open(out, 'w') as f:
    f.write('/* Generated from %s by templates/embed.py; do not edit. */\n'
            % src.split('/')[-1])
    f.write('#include <stddef.h>\n')
    f.write('const char %s[] = {\n%s\n    0x00};\n' % (sym, '\n'.join(lines)))
    f.write('const size_t %s_len = %d;\n' % (sym, len(data)))
