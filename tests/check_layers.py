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
(issue 37): the public headers (include/) are the one thing cli/ may take
from lib/'s layer, and the cli files in ON_LIBRARY include nothing but
system headers, the public headers and the cli headers in CLEAN_HEADERS
(which hold to the same; the build's settings, gg_config.h, are allowed);
the others are listed as still on the engine.
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

# cli files on the library alone: they include the public header(s),
# system headers and CLEAN_HEADERS only. Grow it as commands move over.
ON_LIBRARY = ['cli/cmd_verify.c', 'cli/cmd_synth.c', 'cli/cmd_emit.c',
              'cli/cmd_store.c', 'cli/cmd_rule.c', 'cli/cli_args.c',
              'cli/run_control.c', 'cli/search_note.c', 'cli/bench_ltl.c',
              'cli/bench3d.c', 'cli/full_exec.c', 'cli/serve/serve_none.c',
              'cli/main.c', 'cli/serve/serve_main.c', 'cli/cmd_bench.c',
              'cli/run3d.c', 'cli/cli_pictures.c',
              'cli/serve/serve_server.c', 'cli/serve/serve_sim.c',
              'cli/serve/serve_watch.c', 'cli/serve/serve_msg.c',
              'cli/cmd_run.c', 'cli/cli_config.c', 'cli/stop_signals.c']
# cli headers that include nothing of the engine either
CLEAN_HEADERS = ['cli/cli_args.h', 'cli/commands.h', 'cli/search_hook.h',
                 'cli/stop_signals.h', 'cli/synth_ranks.h',
                 'cli/run_control.h', 'cli/cli_rank.h', 'cli/bench_ltl.h',
                 'cli/run3d.h', 'cli/full_exec.h',
                 'cli/cli_config.h', 'cli/serve/serve_args.h',
                 'cli/cli_pictures.h', 'cli/serve/serve_sim.h',
                 'cli/serve/serve_watch.h', 'cli/serve/serve_server.h',
                 'cli/serve/serve_msg.h', 'cli/serve/serve_page.h']

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

# The command on its library: ON_LIBRARY files and CLEAN_HEADERS include
# system headers, the public header(s) and CLEAN_HEADERS only.
clean = {pathlib.Path(h).name for h in CLEAN_HEADERS}
for rel in ON_LIBRARY + CLEAN_HEADERS:
    src = root / rel
    if not src.is_file():
        problems.append(f'{rel}: listed in ON_LIBRARY/CLEAN_HEADERS but '
                        'missing')
        continue
    for n, line in enumerate(src.read_text().splitlines(), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if m and m.group(1) not in PUBLIC and m.group(1) not in clean \
                and m.group(1) not in BUILD_SETTINGS:
            problems.append(f'{rel}:{n}: includes "{m.group(1)}", but the '
                            'command on the library includes only the '
                            'public header(s) and ' + ', '.join(sorted(clean)))
# Which cli files still reach the engine's headers, directly or through
# cli headers that do (reported, not a failure: the list shrinks as
# commands move onto the library).
cli_names = {h.name for h in (root / 'cli').rglob('*.h')}
direct = {}  # cli file -> its quoted includes
for src in sorted((root / 'cli').rglob('*.[ch]')):
    direct[src] = [m.group(1) for m in re.finditer(
        r'^\s*#\s*include\s+"([^"]+)"', src.read_text(), re.M)]


def engine(src, seen=()):
    for name in direct[src]:
        if name in PUBLIC or name in GENERATED:
            continue
        if name not in cli_names:
            return True
        if name not in seen and any(engine(h, seen + (name,))
                                    for h in direct if h.name == name):
            return True
    return False


on_engine = [str(src.relative_to(root)) for src in direct
             if str(src.relative_to(root)) not in ON_LIBRARY and
             src.suffix == '.c' and engine(src)]

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

for p in problems:
    print(p)
print(f'the command on its library: {len(ON_LIBRARY)} cli files held to '
      f'the public header; {len(on_engine)} .c files still include the '
      'engine (directly or through cli headers): ' + ', '.join(on_engine))
print(f'{len(problems)} crossing(s)' if problems else
      'layers: every include points down the line; gen/ and sat/ read no '
      'environment; no mutable function-static state below the CLI; no '
      f'product file over {MAX_LINES} lines; gen/, sat/, runtime/ hold rooms '
      'only; '
      f'{len(switches)} GOLGEN_* variables read (at most {MAX_SWITCHES})')
sys.exit(1 if problems else 0)
