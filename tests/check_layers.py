#!/usr/bin/env python3
"""The one-way house: every #include points down the line, never up.

    gen (rules, truth tables, fronts, networks, emitters)
      -> sat (exact synthesis, the network cache, the choice of networks)
      -> runtime (kernel sources, backends, universes, pattern I/O)
      -> cli (the golgen command)          research (tools on the library)
                                           lib (libgolgen; its public header
                                           is include/golgen.h)

A file may include headers of its own folder and of folders below it; a
folder's rooms (runtime/engines/, ...) are part of its layer.
gen/ and sat/ also read no environment: runtime/base/config.c reads it once and
the CLI passes options down. And below the CLI no function keeps mutable
static state (a library, threads or MPI ranks call in): file-scope state
and `static const` / `_Thread_local` locals only.
Sizes and rooms (issue 37): no product source file (gen, sat, runtime, cli,
lib, python) over 900 lines: split it by job; the top level of gen/, sat/
and runtime/ holds their rooms and meson.build, no sources; and at most 8 GOLGEN_* variables
read (runtime/base/config.c reads them all). The command on its library
(issue 37): every cli file includes nothing but system headers, the
public headers (include/, golgen.h and golgen/NAME), cli headers and the
build's settings (gg_config.h): the command uses libgolgen as any program
would (MPI's hooks too: include/golgen/mpi_ranks.h). No backend picked
by name outside the registry (runtime/backends/backends.c).
Exit status 1 names every crossing."""
import pathlib
import re
import sys

LAYERS = {'gen': 0, 'sat': 1, 'runtime': 2, 'cli': 3, 'research': 3,
          'lib': 3}
NO_ENV = ('gen', 'sat')
NO_STATIC = ('gen', 'sat', 'runtime', 'lib')
# product code: its .c/.cpp files stay under MAX_LINES lines
PRODUCT = ('gen', 'sat', 'runtime', 'cli', 'lib', 'python')
MAX_LINES = 900
# GOLGEN_* environment variables the product may read
MAX_SWITCHES = 8
ENV_READ = re.compile(r'\b(?:getenv|env_value)\s*\(\s*"(GOLGEN_\w+)"')
# a function-local static that is neither const nor thread-local (function
# bodies are indented, file-scope declarations start in column 0)
LOCAL_STATIC = re.compile(r'^[ \t]+static\s+(?!const\b|_Thread_local\b)')
# headers the build writes (meson configure_file), usable everywhere
GENERATED = {'gg_config.h', 'gg_backends.h'}
# of those, what the build found (GG_HAVE_MPI, GG_VERSION, ...): no part
# of the engine, so the command on its library may read it too
BUILD_SETTINGS = {'gg_config.h'}

# The command on its library (issue 37): every cli file includes system
# headers, the public header(s) and cli headers only; found below.
root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else '.')
home = {}  # header name -> folder
for folder in LAYERS:
    for h in (root / folder).rglob('*.h'):
        home.setdefault(h.name, set()).add(folder)
# the library's installed header lives in include/, part of lib's layer;
# the command may include it (and only it of lib's)
PUBLIC = {h.name for h in (root / 'include').rglob('*.h')}
for h in (root / 'include').rglob('*.h'):
    home.setdefault(h.name, set()).add('lib')

problems = []
for folder, rank in LAYERS.items():
    for src in sorted((root / folder).rglob('*.[ch]*')):
        if src.suffix not in ('.c', '.h', '.cpp'):
            continue
        text = src.read_text()
        for n, line in enumerate(text.splitlines(), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if m:
                name = pathlib.Path(m.group(1)).name
                if name in GENERATED or (folder == 'cli' and name in PUBLIC):
                    continue
                where = home.get(name)
                if not where:
                    problems.append(f'{src}:{n}: "{name}" is in no layer')
                elif folder not in where and min(LAYERS[w] for w in where) >= rank:
                    up = '/'.join(sorted(where))
                    problems.append(f'{src}:{n}: {folder}/ includes {up}/{name}, '
                                    f'a layer {"above" if min(LAYERS[w] for w in where) > rank else "beside"} it')
            if folder in NO_STATIC and src.suffix == '.c' and \
                    LOCAL_STATIC.match(line):
                problems.append(f'{src}:{n}: mutable function-static state '
                                '(allocate it per call)')
            if folder in NO_ENV and re.search(r'\bgetenv\s*\(', line):
                problems.append(f'{src}:{n}: {folder}/ reads the environment '
                                '(runtime/base/config.c does, once)')

# The command on its library: every cli file includes system headers, the
# public header(s) (by name, or as golgen/NAME) and cli headers only.
cli_files = sorted(f for f in (root / 'cli').rglob('*.[ch]') if f.is_file())
cli_names = {f.name for f in cli_files if f.suffix == '.h'}
for src in cli_files:
    for n, line in enumerate(src.read_text().splitlines(), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        inc = m.group(1)
        public = inc in PUBLIC or (inc.startswith('golgen/') and
                                   pathlib.Path(inc).name in PUBLIC)
        if not (public or inc in cli_names or inc in BUILD_SETTINGS):
            problems.append(f'{src.relative_to(root)}:{n}: includes "{inc}", '
                            'but the command is built on its library: it '
                            'includes only the public header(s) '
                            '(include/), cli/ headers and gg_config.h')

switches = {}  # GOLGEN_* name -> first place that reads it
for folder in PRODUCT:
    for src in sorted((root / folder).rglob('*')):
        if src.suffix not in ('.c', '.cpp') or not src.is_file():
            continue
        text = src.read_text()
        n = len(text.splitlines())
        if n > MAX_LINES:
            problems.append(f'{src}: {n} lines, over the {MAX_LINES} a '
                            'product file may have (split it by job)')
        for k, line in enumerate(text.splitlines(), 1):
            for name in ENV_READ.findall(line):
                switches.setdefault(name, f'{src}:{k}')
for folder in ('gen', 'sat', 'runtime'):
    for entry in sorted((root / folder).iterdir()):
        if not entry.is_dir() and entry.name != 'meson.build':
            problems.append(f'{entry}: a file at {folder}/\'s top level; '
                            f'{folder}/ holds its rooms and meson.build '
                            'only (put it in the room its job names)')
if len(switches) > MAX_SWITCHES:
    problems.append(f'{len(switches)} GOLGEN_* variables read, over '
                    f'{MAX_SWITCHES}: ' + ', '.join(
                        f'{n} ({w})' for n, w in sorted(switches.items())))

# No backend picked by name (issue 37): the registry
# (runtime/backends/backends.c, listed in runtime/meson.build) is the one
# place that knows backends by name; elsewhere code asks the backend table
# what a backend does. A kernel target (golgen --target c|cuda|ptx|opencl,
# compared as `target`) is no backend.
reg = (root / 'runtime' / 'meson.build').read_text()
listed = re.search(r'backend_names\s*=\s*\[(.*?)\n\]', reg, re.S)
backend_names = re.findall(r"\[\s*'(\w+)'", listed.group(1)) if listed else []
BY_NAME = re.compile(r'strcmp\s*\(\s*([^,()]*?)\s*,\s*"(' +
                     '|'.join(backend_names) + r')"\s*\)')
for folder in PRODUCT:
    for src in sorted((root / folder).rglob('*.c')):
        if src.name == 'backends.c' or not backend_names:
            continue
        for k, line in enumerate(src.read_text().splitlines(), 1):
            for what, name in BY_NAME.findall(line):
                if what.split('->')[-1].split('.')[-1] == 'target':
                    continue
                problems.append(f'{src.relative_to(root)}:{k}: compares '
                                f'{what} with the backend name "{name}"; ask '
                                'the backend table (runtime/backends/'
                                'backend.h) what the backend does instead')
if not backend_names:
    problems.append('runtime/meson.build: no backend_names list found')

for p in problems:
    print(p)
print(f'{len(problems)} crossing(s)' if problems else
      'layers: every include points down the line; gen/ and sat/ read no '
      'environment; no mutable function-static state below the CLI; '
      f'the command\'s {len(cli_files)} files on the public header(s); no '
      f'product file over {MAX_LINES} lines; gen/, sat/, runtime/ hold rooms '
      'only; '
      f'{len(switches)} GOLGEN_* variables read (at most {MAX_SWITCHES}); '
      f'no backend ({", ".join(backend_names)}) picked by name outside the '
      'registry')
sys.exit(1 if problems else 0)
