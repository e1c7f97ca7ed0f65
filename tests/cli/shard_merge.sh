#!/usr/bin/env bash
# kta eval --shard I/N and kta merge, end to end on the cpu device: three shards of a three-task
# plan (one candidate fails its held-out points), each into its own folder with one secret file,
# merged, equal task by task to the unsharded run with the same secret; the refusals (another
# secret, a shard given twice), a missing shard named with its jobs, bad --shard and a secret
# file others may read.
#   shard_merge.sh KTA PLAN WORKDIR
set -uo pipefail
kta=$1 plan=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
only=(--only gelu --only transpose --only reduce_sum --quick --device cpu)
fail() { echo "FAIL: $*"; exit 1; }
expect() {  # expect STATUS REGEX CMD...
  local want=$1 re=$2; shift 2
  out=$("$@" 2>&1); local rc=$?
  [ "$rc" = "$want" ] || fail "expected status $want, got $rc from: $*"$'\n'"$out"
  [[ "$out" =~ $re ]] || fail "output of '$*' does not match '$re':"$'\n'"$out"
}

for i in 0 1 2; do
  expect 0 "results:" "$kta" eval "$plan" "${only[@]}" --shard $i/3 --secret-file secret --output s$i
done
[ "$(stat -c %a secret)" = 600 ] || fail "the secret file is not mode 600"
expect 0 "results:" "$kta" eval "$plan" "${only[@]}" --secret-file secret --output whole
expect 0 "all 3 jobs of plan 'hip2hip'" "$kta" merge s0 s1 s2 -o merged
python3 - whole/results.json merged/results.json <<'PY' || fail "merged run differs from the whole run"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda t: (t["task"], t["agent"], t["repeat"])
ta = {key(t): t for t in a["tasks"]}
tb = {key(t): t for t in b["tasks"]}
assert ta.keys() == tb.keys(), (ta.keys(), tb.keys())
assert [key(t) for t in a["tasks"]] == [key(t) for t in b["tasks"]], "not in the plan's order"
for k in ta:
    for f in ("compiled", "correct", "correct_heldout", "heldout_passed", "failure_reason"):
        x, y = ta[k].get(f), tb[k].get(f)
        if f == "failure_reason":  # the gate's verdict, not its measured numbers
            x, y = x.split(":")[0], y.split(":")[0]
        assert x == y, (k, f, x, y)
    ha, hb = ta[k]["heldout"], tb[k]["heldout"]
    assert (ha or {}).get("quadrant") == (hb or {}).get("quadrant"), (k, ha, hb)
assert a["run"]["plan_hash"] == b["run"]["plan_hash"], "merged run is not the whole plan's"
assert any(t["heldout_passed"] is False for t in b["tasks"]), "no held-out failure"
PY
[ -s merged/results.db ] && [ -s merged/summary.md ] && [ -s merged/results.csv ] || fail "exports"

# Refusals, named.
expect 0 "results:" "$kta" eval "$plan" "${only[@]}" --shard 0/3 --secret-file other --output t0
expect 0 "results:" "$kta" eval "$plan" --only gelu --quick --device cpu --shard 0/3 --secret-file secret --output p0
expect 1 "different secrets.*same --secret-file" "$kta" merge t0 s1 s2 -o bad
expect 1 "shards of different plans" "$kta" merge p0 s1 s2 -o bad
expect 1 "shard 1 of 3 given twice" "$kta" merge s0 s1 s1 -o bad
expect 1 "not a shard's run folder" "$kta" merge s0 whole -o bad
# A shard missing: the rest is merged, the missing jobs named.
expect 1 "shard 2 of 3 not given.*1 of 3 jobs missing" "$kta" merge s0 s1 -o part
python3 -c "import json,sys; n=len(json.load(open('part/results.json'))['tasks']); sys.exit(n != 2)" ||
  fail "the partial merge does not hold the two finished jobs"
# Usage and the secret file's rules.
expect 2 "I must be 0 to 2" "$kta" eval "$plan" "${only[@]}" --shard 3/3
expect 2 "needs --secret-file" "$kta" eval "$plan" "${only[@]}" --shard 1/3
printf '0123456789abcdef\n' > open_secret && chmod 644 open_secret
expect 1 "readable by you alone" "$kta" eval "$plan" "${only[@]}" --secret-file open_secret --output x
printf 'not hex at all!!\n' > bad_secret && chmod 600 bad_secret
expect 1 "16 to 128 hex digits" "$kta" eval "$plan" "${only[@]}" --secret-file bad_secret --output x
# A folder run again without --shard is no shard any more: its old shard.json goes with the rest.
expect 0 "results:" "$kta" eval "$plan" --only gelu --quick --device cpu --output s2
[ ! -e s2/shard.json ] || fail "a run without --shard kept the folder's old shard.json"
expect 1 "not a shard's run folder" "$kta" merge s0 s1 s2 -o bad
echo "shard_merge: ok"
