#!/bin/sh
# A scripted stand-in for a coding agent, run by kta in a vadd workspace (tests/engine/cases/vadd).
# Usage: fake_agent.sh BEHAVIOUR PROMPT_FILE [ARG [ARG2]]
#   improve        a correct rewrite of vadd.hip, then ./check --quick (its output lands in the log)
#   break          a wrong result (x - y)
#   hardcode       correct only on the visible shapes (N = 1024, 4096)
#   timeout        sleeps past its timeout with a background grandchild and a process that
#                  left its session (setsid), both marked FAKE_AGENT_SLEEPER=<workspace>, TERM
#                  ignored
#   escape         writes next to its workspace and into the run folder
#   snoop          looks for held-out data; ARG is kta's cache folder, ARG2 the task's source
#                  folder; findings in snoop.txt
#   edit-readonly  edits task/ (the reference), PROMPT.md and a new file; vadd.hip to x - y
#   noop           changes nothing
# It also prints a Claude-style `result` event so token counts are parsed from its log.
set -u
behaviour=$1
prompt=$2
arg=${3:-}
arg2=${4:-}
test -r "$prompt" || { echo "no prompt file: $prompt" >&2; exit 3; }

kernel() {  # kernel BODY: writes vadd.hip with BODY as the loop statement
  cat > vadd.hip <<HIP
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  $1
}
HIP
}

case $behaviour in
  improve)
    kernel 'if (i < n) { const float a = x[i]; const float b = y[i]; z[i] = a + b; }'
    ./check --quick
    echo "check exit $?"
    ;;
  break)
    kernel 'if (i < n) z[i] = x[i] - y[i];'
    ;;
  hardcode)
    kernel 'if (n != 1024 && n != 4096) return; if (i < n) z[i] = x[i] + y[i];'
    ;;
  timeout)
    trap '' TERM
    FAKE_AGENT_SLEEPER=$(pwd) sleep 1000 &
    echo $! > grandchild.pid
    FAKE_AGENT_SLEEPER=$(pwd) setsid sh -c 'sleep 1000' </dev/null >/dev/null 2>&1 &
    while :; do sleep 1; done
    ;;
  escape)
    echo escaped > ../escaped.txt
    echo escaped > ../../../../escaped-run.txt
    ;;
  snoop)
    run=$(cd ../../../.. && pwd)
    {
      if head -c 16 "$run/results.db" >/dev/null 2>&1; then echo "results.db: readable"; else echo "results.db: unreadable"; fi
      if cat "$arg/sentinel" >/dev/null 2>&1; then echo "cache: readable"; else echo "cache: unreadable"; fi
      if cat "$arg2"/*.kta >/dev/null 2>&1; then echo "task source: readable"; else echo "task source: unreadable"; fi
      if grep -rqE '(^|[^0-9.])(1001|5003)([^0-9.]|$)' . 2>/dev/null; then echo "workspace: held-out values found"; else echo "workspace: none"; fi
    } > snoop.txt
    ;;
  edit-readonly)
    chmod -R u+w task 2>/dev/null
    sed -i 's/(double)x\[i\] + (double)y\[i\]/(double)x[i] - (double)y[i]/' task/vadd_ref.hip
    echo "edited" >> PROMPT.md
    echo "notes" > notes.txt
    kernel 'if (i < n) z[i] = x[i] - y[i];'
    ;;
  noop)
    ;;
  crash)
    echo "fake agent: crashing before any edit" >&2
    exit 3
    ;;
  *)
    echo "unknown behaviour $behaviour" >&2
    exit 2
    ;;
esac
echo '{"type":"result","subtype":"success","total_cost_usd":0.25,"usage":{"input_tokens":1200,"cache_read_input_tokens":300,"output_tokens":450}}'
exit 0
