#include "engine/execute/bindings.h"

#include <algorithm>
#include <stdexcept>

#include "engine/check/poison.h"
#include "engine/inputs/generate.h"
#include "lang/eval.h"

namespace kta::engine {

namespace {

int find_tensor(const model::Task& task, const std::string& name) {
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    if (task.tensors[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int find_param(const model::Task& task, const std::string& name) {
  for (size_t i = 0; i < task.params.size(); ++i) {
    if (task.params[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

ArgType arg_type(model::ScalarType t) {
  switch (t) {
    case model::ScalarType::i32:
      return ArgType::i32;
    case model::ScalarType::i64:
      return ArgType::i64;
    case model::ScalarType::u32:
      return ArgType::u32;
    case model::ScalarType::u64:
      return ArgType::u64;
    case model::ScalarType::f32:
      return ArgType::f32;
    case model::ScalarType::f64:
      return ArgType::f64;
    case model::ScalarType::boolean:
      return ArgType::boolean;
  }
  return ArgType::i64;
}

bool is_float(model::ScalarType t) {
  return t == model::ScalarType::f32 || t == model::ScalarType::f64;
}

double as_double(const model::Value& v) {
  if (auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  if (auto* d = std::get_if<double>(&v)) return *d;
  if (auto* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
  throw std::invalid_argument("a string where a number is expected");
}

int64_t as_int(const model::Value& v) {
  if (auto* i = std::get_if<int64_t>(&v)) return *i;
  return static_cast<int64_t>(as_double(v));
}

KernelArg scalar_arg(const model::Param& p, const model::Value& v) {
  KernelArg a;
  a.type = arg_type(p.type);
  if (is_float(p.type)) {
    a.scalar.f = as_double(v);
  } else {
    a.scalar.i = as_int(v);
  }
  return a;
}

uint32_t dim(const model::ExprRef& e, const PointSpec& spec, const model::Task& task,
             const char* what) {
  if (!e) return 1;
  int64_t v = lang::eval_int(e, spec.point, task);
  if (v < 1 || v > 0x7fffffff) {
    throw std::invalid_argument(std::string(what) + " evaluates to " + std::to_string(v) +
                                " at this shape point");
  }
  return static_cast<uint32_t>(v);
}

}  // namespace

const char* impl_role_name(ImplRole role) {
  switch (role) {
    case ImplRole::reference:
      return "reference";
    case ImplRole::baseline:
      return "baseline";
    case ImplRole::candidate:
      return "candidate";
  }
  return "?";
}

DeviceRole device_role(ImplRole role) {
  return role == ImplRole::candidate ? DeviceRole::candidate : DeviceRole::trusted;
}

bool is_output(const model::Tensor& t) { return t.role != model::TensorRole::input; }
bool is_input(const model::Tensor& t) { return t.role != model::TensorRole::output; }

PointSpec make_point_spec(const model::Task& task, const model::ShapePoint& point) {
  PointSpec spec;
  spec.point = point;
  for (const auto& p : task.params) {
    if (p.fixed) {
      spec.params.push_back(*p.fixed);
      continue;
    }
    auto it = std::find_if(point.begin(), point.end(),
                           [&](const auto& kv) { return kv.first == p.name; });
    if (it == point.end()) {
      throw std::invalid_argument("shape point has no value for param '" + p.name + "'");
    }
    if (is_float(p.type)) {
      spec.params.emplace_back(std::in_place_type<double>, static_cast<double>(it->second));
    } else {
      spec.params.emplace_back(std::in_place_type<int64_t>, it->second);
    }
  }
  for (const auto& t : task.tensors) {
    std::vector<int64_t> shape;
    for (const auto& e : t.shape) {
      int64_t v = lang::eval_int(e, point, task);
      if (v < 0) {
        throw std::invalid_argument("tensor '" + t.name + "' has negative extent " +
                                    std::to_string(v));
      }
      shape.push_back(v);
    }
    spec.shapes.push_back(std::move(shape));
  }
  return spec;
}

model::Distribution input_distribution(const model::Tensor& t) {
  return t.init ? *t.init : model::Distribution{"normal", {}, {}};
}

HostSet make_inputs(const model::Task& task, const PointSpec& spec, uint64_t seed) {
  HostSet set(task.tensors.size());
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    const auto& t = task.tensors[i];
    if (!is_input(t)) {
      set[i].dtype = t.dtype;
      set[i].shape = spec.shapes[i];
      continue;
    }
    set[i] = generate_input(t, spec.shapes[i], input_distribution(t), task.name, spec.point, seed);
  }
  return set;
}

DeviceSet::DeviceSet(Device& device, const model::Task& task, const PointSpec& spec)
    : device_(device), task_(task), spec_(spec) {
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    HostTensor shape_only;
    shape_only.dtype = task.tensors[i].dtype;
    shape_only.shape = spec.shapes[i];
    size_t bytes = shape_only.numel() * shape_only.element_size();
    buffers_.push_back(device_.alloc(std::max<size_t>(bytes, 1)));
  }
}

size_t set_bytes(const model::Task& task, const PointSpec& spec) {
  size_t total = 0;
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    size_t n = 1;
    for (int64_t d : spec.shapes[i]) n *= static_cast<size_t>(std::max<int64_t>(d, 0));
    total += n * dtype_size(task.tensors[i].dtype);
  }
  return total;
}

DeviceSet::~DeviceSet() {
  for (const auto& b : buffers_) {
    try {
      device_.free(b);
    } catch (...) {
      // A worker that died took its buffers with it.
    }
  }
}

void DeviceSet::upload_inputs(const HostSet& host) {
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    if (!is_input(task_.tensors[i])) continue;
    device_.upload(buffers_[i], host[i].bytes.data(), host[i].bytes.size());
  }
}

void DeviceSet::poison_outputs(uint64_t launch_index) {
  Poison p = poison_for_launch(launch_index);
  auto& cache = poison_cache_[launch_index % 2];
  if (cache.empty()) cache.resize(task_.tensors.size());
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    const auto& t = task_.tensors[i];
    if (t.role != model::TensorRole::output) continue;  // inouts hold fresh inputs instead
    int byte = poison_fill_byte(t.dtype, p);
    if (byte >= 0) {
      device_.fill(buffers_[i], static_cast<uint8_t>(byte));
      continue;
    }
    if (cache[i].bytes.empty()) {
      cache[i] = HostTensor::zeros(t.dtype, spec_.shapes[i]);
      apply_poison(cache[i], p);
    }
    device_.upload(buffers_[i], cache[i].bytes.data(), cache[i].bytes.size());
  }
}

HostSet DeviceSet::download(bool outputs) {
  HostSet set(task_.tensors.size());
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    const auto& t = task_.tensors[i];
    if ((outputs ? is_output(t) : is_input(t))) {
      set[i] = HostTensor::zeros(t.dtype, spec_.shapes[i]);
      device_.download(set[i].bytes.data(), buffers_[i], set[i].bytes.size());
    }
  }
  return set;
}

HostSet DeviceSet::download_outputs() { return download(true); }
HostSet DeviceSet::download_inputs() { return download(false); }

std::vector<KernelArg> DeviceSet::kernel_args(const model::Entry& entry) const {
  std::vector<KernelArg> args = declared_signature(task_, entry);
  for (size_t k = 0; k < entry.args.size(); ++k) {
    int t = find_tensor(task_, entry.args[k]);
    if (t >= 0) {
      args[k].buffer = buffers_[t];
      continue;
    }
    int p = find_param(task_, entry.args[k]);
    args[k] = scalar_arg(task_.params[p], spec_.params[p]);
  }
  return args;
}

LauncherArgs DeviceSet::launcher_args(const model::Entry& entry) const {
  return call_shape(task_, entry, spec_, buffers_);
}

LauncherArgs call_shape(const model::Task& task, const model::Entry& entry, const PointSpec& spec,
                        const std::vector<Buffer>& buffers) {
  LauncherArgs a;
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    const auto& t = task.tensors[i];
    int32_t role = t.role == model::TensorRole::input    ? 0
                   : t.role == model::TensorRole::output ? 1
                                                         : 2;
    a.tensors.push_back({t.name, i < buffers.size() ? buffers[i] : Buffer{},
                         static_cast<int32_t>(t.dtype), spec.shapes[i], role});
  }
  // A torch module's constructor arguments, at this point: integers stay integers (sizes).
  for (const auto& e : entry.init_args) {
    ParamArg pa;
    try {
      pa.i = lang::eval_int(e, spec.point, task);
    } catch (const lang::EvalError&) {
      pa.is_float = true;
      pa.f = lang::eval_number(e, spec.point, task);
    }
    a.init_args.push_back(pa);
  }
  for (size_t i = 0; i < task.params.size(); ++i) {
    const auto& p = task.params[i];
    ParamArg pa;
    pa.name = p.name;
    pa.is_float = is_float(p.type);
    if (pa.is_float) {
      pa.f = as_double(spec.params[i]);
    } else {
      pa.i = as_int(spec.params[i]);
    }
    a.params.push_back(pa);
  }
  return a;
}

LaunchConfig DeviceSet::launch_config(const model::Entry& entry) const {
  LaunchConfig c;
  if (!entry.launch)
    throw std::invalid_argument("kernel entry '" + entry.symbol + "' has no launch geometry");
  const auto& g = *entry.launch;
  c.grid = {dim(g.grid[0], spec_, task_, "grid.x"), dim(g.grid[1], spec_, task_, "grid.y"),
            dim(g.grid[2], spec_, task_, "grid.z")};
  c.block = {dim(g.block[0], spec_, task_, "block.x"), dim(g.block[1], spec_, task_, "block.y"),
             dim(g.block[2], spec_, task_, "block.z")};
  c.shared_bytes =
      g.shared_bytes ? static_cast<size_t>(lang::eval_int(g.shared_bytes, spec_.point, task_)) : 0;
  return c;
}

// Launcher mode and the python runner's entries (module, function) are calls; only kernel mode
// launches with a geometry.
Invocation DeviceSet::invocation(const Impl& impl) const {
  if (impl.entry.mode != model::EntryMode::kernel)
    return Invocation{impl.module, launcher_args(impl.entry)};
  return Invocation{impl.module, KernelLaunch{kernel_args(impl.entry), launch_config(impl.entry)}};
}

LaunchResult DeviceSet::launch(const Impl& impl) const {
  return impl.device->run(invocation(impl));
}

TimedResult DeviceSet::timed(const Impl& impl, bool flush, int repeat) const {
  std::vector<Invocation> batch(std::max(repeat, 1), invocation(impl));
  return impl.device->timed(batch, flush);
}

std::vector<KernelArg> declared_signature(const model::Task& task, const model::Entry& entry) {
  std::vector<KernelArg> sig;
  for (const auto& name : entry.args) {
    KernelArg a;
    int t = find_tensor(task, name);
    if (t >= 0) {
      a.type = ArgType::ptr;
      a.pointee = model::hip_c_type(task.tensors[t].dtype);
    } else {
      int p = find_param(task, name);
      if (p < 0)
        throw std::invalid_argument("kernel argument '" + name + "' names no tensor or param");
      a.type = arg_type(task.params[p].type);
    }
    sig.push_back(a);
  }
  return sig;
}

CompileRequest compile_request(const model::Task& task, const model::Entry& entry) {
  CompileRequest req;
  req.source = entry.file;
  req.entry = entry.symbol;
  if (entry.flavor != model::Flavor::hip) {
    req.flavor = entry.flavor == model::Flavor::torch ? "torch" : "triton";
    req.mode = entry.mode == model::EntryMode::module ? "module" : "function";
    return req;
  }
  req.launcher = entry.mode == model::EntryMode::launcher;
  if (!req.launcher) req.signature = declared_signature(task, entry);
  // Headers next to the task's sources resolve from a workspace copy too.
  req.options.extra_flags.push_back("-I" + task.dir.string());
  return req;
}

}  // namespace kta::engine
