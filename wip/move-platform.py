#!/usr/bin/env python3
"""Moves the kernel under src/platform (issue 20 item 3) and rewrites every relative path that points across the move."""
import os, re, subprocess, sys
ROOT = sys.argv[1] if len(sys.argv) > 1 else '.'
os.chdir(ROOT)
MOVES = [  # old -> new, repository-relative (dirs end with /)
    ('src/app/', 'src/platform/app/'),
    ('src/db/', 'src/platform/db/'),
    ('src/jobs/', 'src/platform/jobs/'),
    ('src/features/outbound/', 'src/platform/outbound/'),
    ('src/features/health/', 'src/platform/health/'),
    ('src/features/demo/', 'src/demo/'),
    ('src/config.ts', 'src/platform/config.ts'),
    ('src/config.test.ts', 'src/platform/config.test.ts'),
    ('src/context.ts', 'src/platform/context.ts'),
]

def moved(path):
    for old, new in MOVES:
        if old.endswith('/'):
            if path.startswith(old) or path + '/' == old:
                return new + path[len(old):] if path.startswith(old) else new.rstrip('/')
        elif path == old:
            return new
    return path

files = subprocess.run(['git', 'ls-files'], capture_output=True, text=True, check=True).stdout.split()
tracked = set(files)
dirs = set()
for f in files:
    d = os.path.dirname(f)
    while d:
        dirs.add(d); d = os.path.dirname(d)

def exists(p):
    if p in tracked or p in dirs: return True
    for a, b in (('.js', '.ts'), ('.js', '.tsx'), ('.jsx', '.tsx')):
        if p.endswith(a) and p[: -len(a)] + b in tracked: return True
    return p + '.ts' in tracked or p + '.tsx' in tracked

SPEC = re.compile(r"""(['"`])(\.\.?/[^'"`\s$]*)\1""")
changed = 0
for f in files:
    if not re.search(r'\.(ts|tsx|js|cjs|mjs)$', f) or f.startswith('web/panel/src/api/'):
        continue
    text = open(f, encoding='utf8').read()
    old_dir = os.path.dirname(f)
    new_dir = os.path.dirname(moved(f))
    def fix(m):
        q, spec = m.group(1), m.group(2)
        target = os.path.normpath(os.path.join(old_dir, spec))
        trail = '/' if spec.endswith('/') else ''
        if not exists(target):
            return m.group(0)
        new_target = moved(target)
        if new_target == target and new_dir == old_dir:
            return m.group(0)
        rel = os.path.relpath(new_target, new_dir or '.')
        if not rel.startswith('.'):
            rel = './' + rel
        return f'{q}{rel}{trail}{q}'
    new_text = SPEC.sub(fix, text)
    if new_text != text:
        open(f, 'w', encoding='utf8').write(new_text); changed += 1

# repository-relative mentions (configs, scripts, docs, tests reading files by path)
# not inside another path (web/panel/src/app), but after ../ or ./ (links from docs)
ROOTED = [(re.compile(r'(?<![\w-])(?<!\w/)' + re.escape(old.rstrip('/')) + r'(?![\w-])'), new.rstrip('/')) for old, new in MOVES]
for f in files:
    if not re.search(r'\.(ts|tsx|js|cjs|mjs|json|md|yaml|yml)$', f) and not f.startswith('.ci/'):
        continue
    if f in ('package-lock.json',) or f.startswith('web/panel/src/api/'):
        continue
    text = open(f, encoding='utf8').read()
    new_text = text
    for pattern, new in ROOTED:
        new_text = pattern.sub(new, new_text)
    if new_text != text:
        open(f, 'w', encoding='utf8').write(new_text); changed += 1

for old, new in MOVES:
    src = old.rstrip('/')
    if os.path.exists(src):
        os.makedirs(os.path.dirname(new.rstrip('/')), exist_ok=True)
        subprocess.run(['git', 'mv', src, new.rstrip('/')], check=True)
print('files rewritten:', changed)

# what the generic rewrite cannot see: paths built from parts, and path patterns in regular expressions
POST = [
    ('scripts/copy-assets.mjs', "['db/migrations', 'features/demo/data']", "['platform/db/migrations', 'demo/data']"),
    ('src/platform/app/contract-table.test.ts', "join(import.meta.dirname, '..', '..', 'docs', 'contract.md')", "join(import.meta.dirname, '..', '..', '..', 'docs', 'contract.md')"),
    ('src/platform/db/embedded/embedded.test.ts', "path.join(process.cwd(), 'src', 'db', 'embedded', 'index.ts')", "path.join(process.cwd(), 'src', 'platform', 'db', 'embedded', 'index.ts')"),
    ('src/features/boundaries.test.ts', "/from '(\\.\\.\\/)+app\\//", "/from '(\\.\\.\\/)+platform\\/app\\//"),
    ('.dependency-cruiser.cjs', "to: { path: '^src/(features|app|cli)/' },", "to: { path: '^src/(features|platform|cli|demo)/' },"),
    ('.dependency-cruiser.cjs', "it knows no feature, no HTTP kernel, no CLI.", "it knows no feature, no platform, no CLI, no demo."),
]
for path, old, new in POST:
    text = open(path, encoding='utf8').read()
    if old not in text:
        sys.exit(f'post-fix not found in {path}: {old}')
    open(path, 'w', encoding='utf8').write(text.replace(old, new))
print('post-fixes applied:', len(POST))
