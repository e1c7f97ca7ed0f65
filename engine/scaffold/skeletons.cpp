// The skeleton of each task kind: a complete task for a placeholder operation, y = x * scale
// (a fixed f32 param), so that the folder checks and evaluates before the author changes a line.
// Every hole is a `TODO(author):` comment; `@name@` stands for the task's name.
#include <string>

#include "engine/scaffold/scaffold.h"

namespace kta::engine {

namespace {

// The template's text (after the raw string's first line break) with the task's name filled in.
std::string fill(std::string text, const std::string& name) {
  if (text.starts_with('\n')) text.erase(0, 1);
  const std::string key = "@name@";
  for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + name.size()))
    text.replace(at, key.size(), name);
  return text;
}

// ---- hip2hip: a HIP reference kernel in f64 and a HIP baseline kernel, kernel mode ----

const char* const kHipTask = R"kta(
// @name@: TODO(author): what the kernel computes and why it is worth optimizing.
// Scaffolded by `kta new hip2hip`: as written, a complete task for a placeholder operation
// (y = x * scale) that `kta check` and `kta eval` accept. Each `TODO(author):` marks a decision
// to make (docs/new.md).
import std.tolerances
import std.inputs
import std.heldout

task @name@ {
  kind    hip2hip
  // TODO(author): the summary and notes are the agent's brief: the operation, layouts, sizes.
  summary "scale a contiguous f32 vector: y = x * scale"
  notes   """
    Compute y[i] = x[i] * scale for every i < N. N is any positive size, not necessarily a
    multiple of anything. The kernel is launched with grid ceil_div(N, 256) and block 256.
  """
  // TODO(author): the params and tensors: dtypes, shapes over the params, input distributions.
  param  N: i64
  param  scale: f32 = 2.0
  input  x: f32[N] = std.inputs.normal(mean: 0, std: 1)
  output y: f32[N]

  // TODO(author): the reference (the same math in f64, rounded once) and the baseline the agent
  // starts from and edits (straightforward and correct), with their launch geometry.
  reference hip "@name@_ref.hip" kernel @name@_ref(x, y, scale, N) grid ceil_div(N, 256) block 256
  baseline  hip "@name@.hip" kernel @name@(x, y, scale, N) grid ceil_div(N, 256) block 256
  editable  "@name@.hip"

  // TODO(author): visible sizes large enough to time on a GPU and small enough for the cpu
  // device. Held-out points are drawn from them with a run secret (sizes of 1, odd, prime and
  // scaled sizes); explicit ones work too: `shapes heldout { N in [1, 1000, 65537] }`.
  shapes visible { N in [1 << 16, 1 << 18] }
  shapes heldout = std.heldout.perturb(visible, count: 8)

  // TODO(author): a tolerance from an error analysis of the operation (std/tolerances.kta).
  // One f32 multiplication per element: f32_strict.
  tolerance y = std.tolerances.f32_strict
  gate correctness { seeds 3 }
  gate performance { min_speedup 1.0 }
  // TODO(author): bytes moved and flops per launch, for throughput figures.
  bytes 8 * N  // read x, write y
  flops N      // one multiplication per element
}
)kta";

const char* const kHipReference = R"hip(
// The @name@ task's reference: y = x * scale in f64, rounded once to f32.
// TODO(author): the task's operation written plainly in f64, an independent ground truth.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void @name@_ref(const float* x, float* y, float scale, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = (float)((double)x[i] * (double)scale);
}
)hip";

const char* const kHipBaseline = R"hip(
// The @name@ task's baseline: y = x * scale in f32.
// One element per thread, launched with grid ceil_div(n, 256) and block 256.
// TODO(author): the kernel the agent starts from: straightforward, correct for every size.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void @name@(const float* x, float* y, float scale, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * scale;
}
)hip";

// ---- torch2hip: PyTorch reference and baseline modules, a HIP starter in launcher mode ----

const char* const kTorchTask = R"kta(
// @name@: TODO(author): what the module computes and why a HIP kernel can beat it.
// Scaffolded by `kta new torch2hip`: as written, a complete task for a placeholder operation
// (y = x * scale) that `kta check` and `kta eval` accept. Each `TODO(author):` marks a decision
// to make (docs/new.md).
import std.tolerances
import std.inputs
import std.heldout

task @name@ {
  kind    torch2hip
  // TODO(author): the summary and notes are the agent's brief: the operation, layouts, sizes.
  summary "scale an [M, N] f32 matrix: y = x * scale"
  notes   """
    y[r, k] = x[r, k] * scale over a contiguous row-major x: [M, N]. M and N are any positive
    sizes, not necessarily multiples of anything.
  """
  // TODO(author): the params and tensors: dtypes, shapes over the params, input distributions.
  // Weights are inputs too, drawn by kta, so that the HIP candidate sees the same values.
  param  M: i64
  param  N: i64
  param  scale: f32 = 2.0
  input  x: f32[M, N] = std.inputs.normal(mean: 0, std: 1)
  output y: f32[M, N]

  // TODO(author): the reference (model.py: the same math in f64, rounded once), the baseline
  // (the PyTorch module a model runs today) and the HIP starter the agent edits (a plain,
  // correct translation). Params that are not dims reach torch code only as init args.
  reference torch "model.py" module Reference(scale)
  baseline  torch "model.py" module Model(scale)
  candidate hip "@name@.hip" launcher
  editable  "@name@.hip"

  // TODO(author): visible sizes large enough to time on a GPU and small enough for the cpu
  // device. Held-out points are drawn from them with a run secret (sizes of 1, odd, prime and
  // scaled sizes); explicit ones work too: `shapes heldout { M in [1, 33] ... }`.
  shapes visible {
    M in [64, 256]
    N in [1024]
  }
  shapes heldout = std.heldout.perturb(visible, count: 8)

  // TODO(author): a tolerance from an error analysis of the operation (std/tolerances.kta).
  // One f32 multiplication per element: f32_strict.
  tolerance y = std.tolerances.f32_strict
  gate correctness { seeds 3 }
  gate performance { min_speedup 1.0 }
  // TODO(author): bytes moved and flops per call, for throughput figures.
  bytes 8 * M * N  // read x, write y
  flops M * N      // one multiplication per element
}
)kta";

const char* const kTorchModel = R"py(
# The @name@ task's PyTorch code.
# The baseline module (what a model runs today) and the reference (the same math in f64, rounded
# once to the output dtype). Weights are task inputs drawn by kta, never parameters created here
# (docs/tasks.md). Runs on torch 1.13 and later, on CPU and GPU.
# TODO(author): the task's operation, in both modules.
import torch


class Model(torch.nn.Module):
    """The baseline: y = x * scale in the input's dtype."""

    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return x * self.scale


class Reference(torch.nn.Module):
    """The reference: the same math in f64, rounded once to the output dtype."""

    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return (x.double() * self.scale).to(x.dtype)
)py";

const char* const kTorchStarter = R"hip(
// The @name@ task's HIP starter.
// A plain HIP translation of the PyTorch module (model.py), correct for every size and
// unoptimized: one thread per element.
// TODO(author): the task's operation, translated plainly: an agent starts from this file.
// Tensors (declaration order): x f32[M, N], y f32[M, N]; params M, N, scale.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

__global__ void @name@_kernel(const float* x, float* y, float scale, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * scale;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  const float scale = (float)call->params[2].f;
  const int64_t n = M * N;
  const int threads = 256;
  const unsigned blocks = (unsigned)((n + threads - 1) / threads);
  @name@_kernel<<<blocks, threads, 0, (hipStream_t)call->stream>>>(x, y, scale, n);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
)hip";

// ---- triton2triton: a PyTorch reference and a Triton launcher the agent edits ----

const char* const kTritonTask = R"kta(
// @name@: TODO(author): what the kernel computes and why it is worth optimizing.
// Scaffolded by `kta new triton2triton`: as written, a complete task for a placeholder operation
// (y = x * scale) that `kta check` accepts; Triton runs on a GPU only (`kta eval --device hip`).
// Each `TODO(author):` marks a decision to make (docs/new.md).
import std.tolerances
import std.inputs
import std.heldout

task @name@ {
  kind    triton2triton
  // TODO(author): the summary and notes are the agent's brief: the operation, layouts, sizes.
  summary "scale an [M, N] f32 matrix in Triton: y = x * scale"
  notes   """
    y[r, k] = x[r, k] * scale over a contiguous row-major x: [M, N]. The launcher
    @name@(x, y, M, N, scale)
    gets CUDA tensors and the params as Python numbers, launches Triton kernel(s) and writes y
    in place. M and N are any positive sizes.
  """
  // TODO(author): the params and tensors: dtypes, shapes over the params, input distributions.
  param  M: i64
  param  N: i64
  param  scale: f32 = 2.0
  input  x: f32[M, N] = std.inputs.normal(mean: 0, std: 1)
  output y: f32[M, N]

  // TODO(author): the reference (ref.py: the same math in f64, rounded once to the output dtype)
  // and the baseline the agent edits (a straightforward Triton launcher, called with every
  // tensor in declaration order, then the params).
  reference torch "ref.py" module Reference(scale)
  baseline  triton "@name@.py" function @name@
  editable  "@name@.py"

  // TODO(author): visible sizes large enough to time on a GPU. Held-out points are drawn from
  // them with a run secret (sizes of 1, odd, prime and scaled sizes); explicit ones work too.
  shapes visible {
    M in [1024, 4096]
    N in [1024, 4096]
  }
  shapes heldout = std.heldout.perturb(visible, count: 8)

  // TODO(author): a tolerance from an error analysis of the operation (std/tolerances.kta).
  // One f32 multiplication per element: f32_strict.
  tolerance y = std.tolerances.f32_strict
  gate correctness { seeds 3 }
  gate performance { min_speedup 1.0 }
  // TODO(author): bytes moved and flops per call, for throughput figures.
  bytes 8 * M * N  // read x, write y
  flops M * N      // one multiplication per element
}
)kta";

const char* const kTritonReference = R"py(
# The @name@ task's reference: y = x * scale in f64, rounded once to f32.
# TODO(author): the task's operation written plainly in f64, an independent ground truth.
import torch


class Reference(torch.nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return (x.double() * self.scale).to(x.dtype)
)py";

const char* const kTritonBaseline = R"py(
# The @name@ task's baseline: y = x * scale.
# One program per block of 1024 elements.
# TODO(author): the kernel(s) the agent starts from: straightforward but not silly, with int64
# offsets and masks on every load and store (docs/tasks.md).
import triton
import triton.language as tl


@triton.jit
def _@name@_kernel(x_ptr, y_ptr, n, scale, BLOCK: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(y_ptr + offsets, x * scale, mask=mask)


def @name@(x, y, M, N, scale):
    """x, y: [M, N] f32 CUDA tensors, contiguous; writes y = x * scale in place."""
    n = M * N
    BLOCK = 1024
    _@name@_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, scale, BLOCK=BLOCK)
)py";

struct Template {
  const char* path;
  const char* text;
};

Scaffold make(const std::string& name, const std::vector<Template>& files,
              const std::string& editable) {
  Scaffold s;
  for (const Template& t : files) s.files.push_back({fill(t.path, name), fill(t.text, name)});
  s.files.front().text = formatted_kta(s.files.front().text, s.files.front().path.string());
  for (const ScaffoldFile& f : std::vector<ScaffoldFile>(s.files))
    if (f.path == editable) s.files.push_back(solution_stub(name, f.path, f.text));
  return s;
}

}  // namespace

Scaffold skeleton_task(model::TaskKind kind, const std::string& name) {
  switch (kind) {
    case model::TaskKind::hip2hip:
      return make(name,
                  {{"@name@.kta", kHipTask},
                   {"@name@_ref.hip", kHipReference},
                   {"@name@.hip", kHipBaseline}},
                  name + ".hip");
    case model::TaskKind::torch2hip:
      return make(
          name,
          {{"@name@.kta", kTorchTask}, {"model.py", kTorchModel}, {"@name@.hip", kTorchStarter}},
          name + ".hip");
    case model::TaskKind::triton2triton:
      return make(name,
                  {{"@name@.kta", kTritonTask},
                   {"ref.py", kTritonReference},
                   {"@name@.py", kTritonBaseline}},
                  name + ".py");
  }
  return {};
}

}  // namespace kta::engine
