#include "engine/scaffold/from_module.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <regex>
#include <set>

#include "engine/inputs/host_tensor.h"

namespace kta::engine {

namespace {

// Init args with these names are indices or window sizes, never tensor sizes, even when their
// value equals a size (softmax's dim=2 over a [2, ...] input).
bool index_like(const std::string& arg) {
  static const std::set<std::string> names = {
      "dim",     "dims",     "axis",   "axes",      "kernel_size", "stride",
      "padding", "dilation", "groups", "start_dim", "end_dim",     "output_padding"};
  return names.count(arg) != 0;
}

struct ShapeParam {
  std::string name;
  int64_t value = 0;
  std::vector<std::string> uses;  // "x dim 0", "init arg in_features"
};

struct FixedParam {
  std::string name, type, value;
  std::string note;  // "init arg alpha"
};

struct TensorDecl {
  std::string name;
  const ProbedTensor* probe = nullptr;
  std::vector<std::string> dims;  // param names or literals
};

// The task's declarations, derived from the probe (see from_module.h).
struct ModuleTask {
  std::vector<ShapeParam> params;
  std::vector<FixedParam> fixed;  // declared after the shape params
  std::vector<TensorDecl> inputs, outputs;
  std::vector<std::string> init_args;  // param names
  std::vector<std::string> todos;      // what the author must look at, one line each
  std::set<std::string> used;          // names taken by tensors and params

  std::string unique(std::string base) {
    static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
    if (!std::regex_match(base, identifier)) base = "t";
    while (reserved_name(base) || used.count(base) != 0) base += "_";
    used.insert(base);
    return base;
  }

  ShapeParam* param_of(int64_t value) {
    for (ShapeParam& p : params)
      if (p.value == value) return &p;
    return nullptr;
  }

  ShapeParam& add_param(int64_t value) {
    params.push_back({unique(fmt::format("D{}", params.size())), value, {}});
    return params.back();
  }
};

std::string arg_label(const ProbedInitArg& a, size_t i) {
  return a.name.empty() ? fmt::format("init arg {}", i) : "init arg " + a.name;
}

// An integer init arg that may stand for a size: larger than 1 and not an index by its name.
bool size_like(const ProbedInitArg& a) {
  return a.kind == ProbedInitArg::Kind::integer && a.i > 1 && !index_like(a.name);
}

void declare_inputs(ModuleTask& t, const ModuleProbe& probe) {
  for (size_t i = 0; i < probe.inputs.size(); ++i) {
    std::string base = i < probe.forward_params.size() ? probe.forward_params[i]
                       : probe.inputs.size() == 1      ? std::string("x")
                                                       : fmt::format("x{}", i);
    t.inputs.push_back({t.unique(base), &probe.inputs[i], {}});
  }
  for (TensorDecl& in : t.inputs) {
    for (size_t d = 0; d < in.probe->shape.size(); ++d) {
      int64_t v = in.probe->shape[d];
      if (v == 1) {
        in.dims.push_back("1");
        continue;
      }
      ShapeParam* p = t.param_of(v);
      if (p == nullptr) p = &t.add_param(v);
      p->uses.push_back(fmt::format("{} dim {}", in.name, d));
      in.dims.push_back(p->name);
    }
  }
}

// Output sizes are params when an input has them or a size-like init arg sets them; any other
// size stays a literal the author must write over the params.
void declare_outputs(ModuleTask& t, const ModuleProbe& probe) {
  for (size_t i = 0; i < probe.outputs.size(); ++i)
    t.outputs.push_back(
        {t.unique(probe.outputs.size() == 1 ? "y" : fmt::format("y{}", i)), &probe.outputs[i], {}});
  for (TensorDecl& out : t.outputs) {
    for (size_t d = 0; d < out.probe->shape.size(); ++d) {
      int64_t v = out.probe->shape[d];
      ShapeParam* p = v == 1 ? nullptr : t.param_of(v);
      if (p == nullptr && v > 1) {
        for (const ProbedInitArg& a : probe.init_args)
          if (size_like(a) && a.i == v && p == nullptr) p = &t.add_param(v);
      }
      if (p == nullptr) {
        out.dims.push_back(std::to_string(v));
        if (v != 1)
          t.todos.push_back(
              fmt::format("{} dim {} ({}) is no input size nor init arg: write it over the params",
                          out.name, d, v));
        continue;
      }
      p->uses.push_back(fmt::format("{} dim {}", out.name, d));
      out.dims.push_back(p->name);
    }
  }
}

// A float literal the language reads as a float (2.0, not 2) and Python reads back exactly.
std::string float_literal(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (std::isnan(v)) return "nan";
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

// Init args that set a size are that shape param; the others become fixed params (so that a
// HIP candidate gets them too, in call->params), named after Model.__init__'s parameters.
void declare_init_args(ModuleTask& t, const ModuleProbe& probe) {
  for (size_t i = 0; i < probe.init_args.size(); ++i) {
    const ProbedInitArg& a = probe.init_args[i];
    ShapeParam* p = size_like(a) ? t.param_of(a.i) : nullptr;
    if (p != nullptr) {
      p->uses.push_back(arg_label(a, i));
      t.init_args.push_back(p->name);
      continue;
    }
    FixedParam f{t.unique(a.name.empty() ? fmt::format("arg{}", i) : a.name), "i64",
                 std::to_string(a.i), arg_label(a, i)};
    if (a.kind == ProbedInitArg::Kind::real) {
      f.type = "f64";
      f.value = float_literal(a.f);
    }
    if (a.kind == ProbedInitArg::Kind::boolean)
      f.note += fmt::format(", the bool {} (Model gets {})", a.i != 0 ? "True" : "False", a.i);
    t.init_args.push_back(f.name);
    t.fixed.push_back(std::move(f));
  }
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

std::string join_ints(const std::vector<int64_t>& values) {
  std::vector<std::string> parts;
  for (int64_t v : values) parts.push_back(std::to_string(v));
  return join(parts, ", ");
}

std::string type_of(const TensorDecl& t) {
  return fmt::format("{}[{}]", dtype_name(t.probe->dtype), join(t.dims, ", "));
}

bool floating(model::DType d) {
  return d == model::DType::f16 || d == model::DType::bf16 || d == model::DType::f32 ||
         d == model::DType::f64;
}

std::string number(double v) { return fmt::format("{:.3g}", v); }

// The input's distribution, from what get_inputs() drew.
std::string distribution(const ProbedTensor& t) {
  if (t.dtype == model::DType::boolean) return "std.inputs.bernoulli(p: 0.5)";
  if (!t.min || !t.max || !t.mean || !t.std) return "std.inputs.normal(mean: 0, std: 1)";
  if (!floating(t.dtype)) {
    auto lo = static_cast<int64_t>(*t.min), hi = static_cast<int64_t>(*t.max) + 1;
    return fmt::format("std.inputs.integers(lo: {}, hi: {})", lo, hi);
  }
  if (*t.std == 0) return fmt::format("std.inputs.constant(value: {})", number(*t.mean));
  if (*t.min >= 0 && *t.max <= 1) return "std.inputs.uniform(lo: 0, hi: 1)";
  if (std::abs(*t.mean) < 0.2 && *t.std > 0.8 && *t.std < 1.2)
    return "std.inputs.normal(mean: 0, std: 1)";
  return fmt::format("std.inputs.normal(mean: {}, std: {})", number(*t.mean), number(*t.std));
}

std::string drawn(const TensorDecl& in) {
  const ProbedTensor& t = *in.probe;
  if (!t.min || !t.max || !t.mean || !t.std) return in.name + " (no values to show)";
  return fmt::format("{} in [{}, {}], mean {}, std {}", in.name, number(*t.min), number(*t.max),
                     number(*t.mean), number(*t.std));
}

std::string tolerance(model::DType d) {
  switch (d) {
    case model::DType::f16:
      return "std.tolerances.f16";
    case model::DType::bf16:
      return "std.tolerances.bf16";
    case model::DType::f32:
      return "std.tolerances.f32_accum";
    case model::DType::f64:
      return "std.tolerances.f64";
    default:
      return "std.tolerances.exact";
  }
}

// Bytes per call: every input read once, every output written once.
std::string bytes(const ModuleTask& t) {
  std::vector<std::string> terms;
  for (const auto* list : {&t.inputs, &t.outputs}) {
    for (const TensorDecl& d : *list) {
      std::vector<std::string> factors = {std::to_string(dtype_size(d.probe->dtype))};
      for (const std::string& dim : d.dims)
        if (dim != "1") factors.push_back(dim);
      terms.push_back(join(factors, " * "));
    }
  }
  return join(terms, " + ");
}

// The words of `text`, a `quoted span` kept whole.
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  bool quoted = false;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(at, end - at);
    if (quoted)
      out.back() += " " + word;
    else
      out.push_back(word);
    if (std::count(word.begin(), word.end(), '`') % 2 == 1) quoted = !quoted;
    at = end + 1;
  }
  return out;
}

// `text` as comment lines of at most 100 columns, each starting with `lead` ("  //").
std::string comment(const std::string& lead, const std::string& text) {
  std::string out, line;
  for (const std::string& word : words(text)) {
    if (!line.empty() && lead.size() + 1 + line.size() + 1 + word.size() > 100) {
      out += lead + " " + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += lead + " " + line + "\n";
  return out;
}

void write_header(std::string& o, const std::string& name, const ModuleProbe& probe,
                  const std::string& file, const ModuleTask& t) {
  o += fmt::format("// {}: the PyTorch module {} of {}, to be written in HIP.\n", name,
                   probe.class_name, file);
  o += comment("//", fmt::format("Scaffolded by `kta new torch2hip --from {}`, which ran the "
                                 "module once on the CPU (torch {}) for the tensors, dtypes and "
                                 "first shape grid below. Each `{}` marks a decision to make "
                                 "(docs/new.md).",
                                 file, probe.torch_version, kAuthorTodo));
  o += "import std.tolerances\nimport std.inputs\nimport std.heldout\n\n";
  o += fmt::format("task {} {{\n  kind torch2hip\n", name);
  o += comment("  //", fmt::format("{} the summary and notes are the agent's brief: what the "
                                   "module computes, the layouts and the sizes.",
                                   kAuthorTodo));
  o += fmt::format("  summary \"{} of {} in HIP\"\n", probe.class_name, file);
  o += fmt::format(
      "  notes \"\"\"\n    Write the PyTorch module {} of {} in HIP. Inputs, in this "
      "order:\n",
      probe.class_name, file);
  for (const TensorDecl& in : t.inputs) o += fmt::format("      {}: {}\n", in.name, type_of(in));
  o += t.outputs.size() == 1 ? "    Output:\n" : "    Outputs, in this order:\n";
  for (const TensorDecl& out : t.outputs)
    o += fmt::format("      {}: {}\n", out.name, type_of(out));
  o += "  \"\"\"\n";
}

void write_tensors(std::string& o, const ModuleTask& t) {
  o += "  // Shape params: one per distinct size of the tensors (sizes of 1 stay literals).\n";
  o += comment("  //", fmt::format("{} name them (B, N, ...) and split a param that unrelated "
                                   "dimensions share only by chance.",
                                   kAuthorTodo));
  for (const ShapeParam& p : t.params)
    o += fmt::format("  param {}: i64  // {}: {}\n", p.name, p.value, join(p.uses, ", "));
  for (const FixedParam& f : t.fixed)
    o += fmt::format("  param {}: {} = {}  // {}\n", f.name, f.type, f.value, f.note);
  o +=
      comment("  //", fmt::format("{} each input's distribution. get_inputs() drew:", kAuthorTodo));
  for (const TensorDecl& in : t.inputs) o += "  //   " + drawn(in) + "\n";
  for (const TensorDecl& in : t.inputs)
    o += fmt::format("  input {}: {} = {}\n", in.name, type_of(in), distribution(*in.probe));
  for (const TensorDecl& out : t.outputs)
    o += fmt::format("  output {}: {}\n", out.name, type_of(out));
  for (const std::string& todo : t.todos)
    o += comment("  //", fmt::format("{} {}.", kAuthorTodo, todo));
  o += "\n";
}

void write_entries(std::string& o, const std::string& name, const ModuleProbe& probe,
                   const std::string& file, const ModuleTask& t) {
  if (!probe.parameters.empty()) {
    std::vector<std::string> shown;
    for (const ProbedParameter& p : probe.parameters)
      shown.push_back(fmt::format("{} [{}]", p.name, join_ints(p.shape)));
    o += comment("  //", fmt::format("{} {} creates {} parameter tensor{} in __init__ ({}) that a "
                                     "HIP candidate cannot see: make them inputs of forward, "
                                     "drawn by kta (docs/tasks.md).",
                                     kAuthorTodo, probe.class_name, shown.size(),
                                     shown.size() == 1 ? "" : "s", join(shown, ", ")));
  }
  o += comment("  //", fmt::format("{} the module stands in for the reference; an independent one "
                                   "(the same math in f64, rounded once to the output dtype: "
                                   "docs/tasks.md) lets the tolerance budget only for the "
                                   "candidate's rounding.",
                                   kAuthorTodo));
  o += comment("  //", fmt::format("{} the HIP starter {}.hip only zeroes the outputs: write a "
                                   "plain, correct translation of the module there.",
                                   kAuthorTodo, name));
  std::string module =
      fmt::format("\"{}\" module {}({})", file, probe.class_name, join(t.init_args, ", "));
  o += fmt::format("  reference torch {}\n  baseline torch {}\n", module, module);
  o += fmt::format("  candidate hip \"{0}.hip\" launcher\n  editable \"{0}.hip\"\n\n", name);
}

void write_grid_and_checks(std::string& o, const ModuleTask& t) {
  o += "  // The sizes get_inputs() used; held-out points are drawn from them with a run secret.\n";
  o += comment("  //", fmt::format("{} more visible sizes, large enough to time on a GPU and small "
                                   "enough for the cpu device.",
                                   kAuthorTodo));
  o += "  shapes visible {\n";
  for (const ShapeParam& p : t.params) o += fmt::format("    {} in [{}]\n", p.name, p.value);
  o += "  }\n  shapes heldout = std.heldout.perturb(visible, count: 8)\n\n";
  o += comment("  //", fmt::format("{} each tolerance from an error analysis "
                                   "(std/tolerances.kta); these are the presets for the outputs' "
                                   "dtypes.",
                                   kAuthorTodo));
  for (const TensorDecl& out : t.outputs)
    o += fmt::format("  tolerance {} = {}\n", out.name, tolerance(out.probe->dtype));
  o += "  gate correctness { seeds 3 }\n";
  o += "  // Every input read once, every output written once.\n";
  o += comment("  //", fmt::format("{} flops per call, for throughput figures.", kAuthorTodo));
  o += fmt::format("  bytes {}\n}}\n", bytes(t));
}

std::string starter(const std::string& name, const ModuleProbe& probe, const std::string& file,
                    const ModuleTask& t) {
  std::vector<const TensorDecl*> tensors;
  for (const TensorDecl& d : t.inputs) tensors.push_back(&d);
  for (const TensorDecl& d : t.outputs) tensors.push_back(&d);
  std::string o = fmt::format("// The {} task's HIP starter: what the agent starts from.\n", name);
  o += comment("//", fmt::format("{} a plain, correct HIP translation of {} ({}), launched by "
                                 "kta_launch below. As scaffolded it only zeroes the outputs, so "
                                 "that `kta eval` runs it and reports it wrong.",
                                 kAuthorTodo, probe.class_name, file));
  std::vector<std::string> listed, names;
  for (const TensorDecl* d : tensors) listed.push_back(d->name + " " + type_of(*d));
  for (const ShapeParam& p : t.params) names.push_back(p.name);
  for (const FixedParam& f : t.fixed) names.push_back(f.name);
  o += comment("//", fmt::format("Tensors (declaration order): {}; params {}.", join(listed, ", "),
                                 join(names, ", ")));
  bool f16 = false, bf16 = false;
  for (const TensorDecl* d : tensors) {
    f16 = f16 || d->probe->dtype == model::DType::f16;
    bf16 = bf16 || d->probe->dtype == model::DType::bf16;
  }
  if (bf16) o += "#include <hip/hip_bf16.h>\n";
  if (f16) o += "#include <hip/hip_fp16.h>\n";
  o += "#include <hip/hip_runtime.h>\n#include <kta/launch.h>\n#include <stdint.h>\n\n";
  o += "extern \"C\" int kta_launch(const kta_call* call) {\n";
  o += fmt::format(
      "  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != {} ||\n"
      "      call->num_params != {})\n    return 1;\n",
      tensors.size(), names.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const char* c = model::hip_c_type(tensors[i]->probe->dtype);
    bool in = i < t.inputs.size();
    o += fmt::format("  {0}{1}* {2} = ({0}{1}*)call->tensors[{3}].data;\n", in ? "const " : "", c,
                     tensors[i]->name, i);
  }
  for (size_t i = 0; i < t.params.size(); ++i)
    o += fmt::format("  const int64_t {} = call->params[{}].i;\n", t.params[i].name, i);
  for (size_t i = 0; i < t.fixed.size(); ++i)
    o += fmt::format("  const {} {} = call->params[{}].{};\n",
                     t.fixed[i].type == "f64" ? "double" : "int64_t", t.fixed[i].name,
                     t.params.size() + i, t.fixed[i].type == "f64" ? "f" : "i");
  o += "  hipStream_t stream = (hipStream_t)call->stream;\n";
  o += fmt::format(
      "  // {} launch kernels that compute the outputs from the inputs, in place of\n"
      "  // these lines.\n",
      kAuthorTodo);
  for (const TensorDecl& d : t.inputs) o += fmt::format("  (void){};\n", d.name);
  for (const std::string& n : names) o += fmt::format("  (void){};\n", n);
  for (const TensorDecl& d : t.outputs) {
    std::vector<std::string> size = {fmt::format("sizeof({})", model::hip_c_type(d.probe->dtype))};
    for (const std::string& dim : d.dims)
      if (dim != "1") size.push_back("(size_t)" + dim);
    o += fmt::format("  hipMemsetAsync({}, 0, {}, stream);\n", d.name, join(size, " * "));
  }
  o += "  return hipGetLastError() == hipSuccess ? 0 : 2;\n}\n";
  return o;
}

}  // namespace

Scaffold scaffold_from_module(const std::string& name, const ModuleProbe& probe,
                              const std::string& module_file, const std::string& module_text) {
  Scaffold s;
  ModuleTask t;
  t.used.insert(name);
  declare_inputs(t, probe);
  declare_outputs(t, probe);
  declare_init_args(t, probe);
  if (t.params.empty()) {
    s.error =
        "no tensor of the module has a dimension larger than 1: a shape grid needs at "
        "least one size to vary";
    return s;
  }
  std::string kta;
  write_header(kta, name, probe, module_file, t);
  write_tensors(kta, t);
  write_entries(kta, name, probe, module_file, t);
  write_grid_and_checks(kta, t);
  std::string hip = starter(name, probe, module_file, t);
  s.files.push_back({name + ".kta", formatted_kta(kta, name + ".kta")});
  s.files.push_back({module_file, module_text});
  s.files.push_back({name + ".hip", hip});
  s.files.push_back(solution_stub(name, name + ".hip", hip));
  return s;
}

}  // namespace kta::engine
