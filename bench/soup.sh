# Sourced by the bench/ GPU scripts: random RLE soups from python3 (the
# GPU host has it; golgen itself writes no soups).
#
# soup W H STATES SEED RULE: a multi-state soup (half 0, a quarter alive,
# the rest dying states; Golly's letters).
soup() {
    python3 - "$@" <<'PY'
import random, sys
w, h, states, seed = map(int, sys.argv[1:5])
rule = sys.argv[5]
r = random.Random(seed)
def letter(s):
    return "." if s == 0 else chr(ord("A") + s - 1)
rows = []
for _ in range(h):
    row = []
    for _ in range(w):
        u = r.random()
        s = 0 if u < 0.5 else 1 if u < 0.75 else r.randrange(2, states)
        row.append(letter(s))
    rows.append("".join(row))
print(f"x = {w}, y = {h}, rule = {rule}")
print("$".join(rows) + "!")
PY
}

# soup2 W H SEED: a two-state soup of density 1/2 (rule B3/S23).
soup2() {
    python3 - "$@" <<'PY'
import random, sys
w, h, seed = map(int, sys.argv[1:4])
r = random.Random(seed)
print(f"x = {w}, y = {h}, rule = B3/S23")
print("$".join("".join(r.choice("bo") for _ in range(w)) for _ in range(h)) + "!")
PY
}
