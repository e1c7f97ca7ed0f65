#include "engine/agents/prompt.h"

#include <fmt/format.h>

#include <fstream>
#include <optional>
#include <sstream>

#include "engine/device/device.h"
#include "lang/eval.h"
#include "lang/format.h"
#include "lang/module.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const char* scalar_c(model::ScalarType t) {
  switch (t) {
    case model::ScalarType::i32:
      return "int32_t";
    case model::ScalarType::i64:
      return "int64_t";
    case model::ScalarType::u32:
      return "uint32_t";
    case model::ScalarType::u64:
      return "uint64_t";
    case model::ScalarType::f32:
      return "float";
    case model::ScalarType::f64:
      return "double";
    case model::ScalarType::boolean:
      return "bool";
  }
  return "?";
}

std::string tensors_text(const model::Task& task) {
  std::string out;
  for (const auto& t : task.tensors) {
    std::string shape;
    for (const auto& e : t.shape) shape += (shape.empty() ? "" : ", ") + lang::format_expr(*e);
    const char* role = t.role == model::TensorRole::input    ? "input"
                       : t.role == model::TensorRole::output ? "output"
                                                             : "inout";
    out += fmt::format("- {} `{}`: {}[{}]\n", role, t.name, model::hip_c_type(t.dtype), shape);
  }
  for (const auto& p : task.params)
    out += fmt::format("- param `{}`: {}\n", p.name, scalar_c(p.type));
  return out;
}

std::string entry_text(const model::Task& task) {
  const model::Entry& e = task.candidate.file.empty() ? task.baseline : task.candidate;
  std::string file = e.file.filename().string();
  if (e.mode == model::EntryMode::launcher)
    return fmt::format(
        "`{}` exports `extern \"C\" int {}(const kta_call*)` (launcher mode: your own "
        "grid, kernels and launches)",
        file, e.symbol);
  if (e.mode == model::EntryMode::module)
    return fmt::format("`{}` defines the module class `{}`", file, e.symbol);
  if (e.mode == model::EntryMode::function)
    return fmt::format("`{}` defines the function `{}`", file, e.symbol);
  std::string args;
  for (const auto& a : e.args) {
    std::string c;
    for (const auto& t : task.tensors)
      if (t.name == a)
        c = fmt::format("{}{}* {}", t.role == model::TensorRole::input ? "const " : "",
                        model::hip_c_type(t.dtype), a);
    for (const auto& p : task.params)
      if (p.name == a) c = fmt::format("{} {}", scalar_c(p.type), a);
    args += (args.empty() ? "" : ", ") + (c.empty() ? a : c);
  }
  std::string launch;
  if (e.launch) {
    auto dims = [](const model::ExprRef(&d)[3]) {
      std::string s;
      for (const auto& x : d)
        if (x) s += (s.empty() ? "" : ", ") + lang::format_expr(*x);
      return s.empty() ? std::string("1") : s;
    };
    launch = fmt::format(", launched by kta with grid ({}) and block ({})", dims(e.launch->grid),
                         dims(e.launch->block));
  }
  return fmt::format("`{}` defines `__global__ void {}({})`{}; keep this name and signature", file,
                     e.symbol, args, launch);
}

std::string shapes_text(const TaskJob& job) {
  std::string out;
  for (const auto& p : job.visible) out += "- " + format_point(p) + "\n";
  return out;
}

std::string gates_text(const TaskJob& job) {
  std::string out = fmt::format(
      "- correctness: {} input seeds per visible shape, outputs compared "
      "with the reference\n",
      job.seeds);
  if (job.task.gates.min_speedup)
    out += fmt::format(
        "- performance: speedup over the baseline of at least {:g}x (geometric mean over shapes)\n",
        *job.task.gates.min_speedup);
  else
    out += "- performance: speedup over the baseline is measured and reported (no minimum)\n";
  if (job.task.gates.audit_fail_on)
    out += fmt::format("- audit: hard-coded shape assumptions at level '{}' fail the task\n",
                       *job.task.gates.audit_fail_on);
  return out;
}

std::string tolerances_text(const model::Task& task) {
  std::string out;
  for (const auto& [name, t] : task.tolerances) {
    if (t.per_point()) {
      // Over params: the formula, evaluated at each shape point.
      out += fmt::format("- `{}`: {} (evaluated at each shape point)\n", name,
                         lang::tolerance_text(t));
      continue;
    }
    out += fmt::format("- `{}`: atol {:g}, rtol {:g}{}\n", name, t.atol, t.rtol,
                       t.max_mismatch > 0 ? fmt::format(", up to {:g}% of elements may mismatch",
                                                        t.max_mismatch * 100)
                                          : "");
  }
  return out.empty() ? "- exact match\n" : out;
}

std::string device_text(const std::string& device) {
  std::optional<DeviceSpec> spec = parse_device_spec(device);
  if (spec && spec->kind == DeviceKind::cpu)
    return "kta's cpu device: your HIP source is compiled with the host compiler against kta's HIP "
           "device model and runs on CPU threads. Write portable HIP; the AMD notes below are the "
           "target the code is written for.";
  return fmt::format("the GPU device `{}`", device);
}

}  // namespace

fs::path prompts_dir(const fs::path& configured, const fs::path& stdlib) {
  if (!configured.empty()) return configured;
  return (stdlib.empty() ? lang::default_stdlib_dir() : stdlib) / "prompts";
}

std::string arch_cheatsheet(const std::string& device) {
  // The cpu device models HIP as written for AMD; on a GPU, the driver present names the vendor.
  std::error_code ec;
  std::optional<DeviceSpec> spec = parse_device_spec(device);
  if (spec && spec->kind == DeviceKind::hip && fs::exists("/proc/driver/nvidia/version", ec))
    return "nvidia-hopper";
  return "amd-cdna3";
}

std::string language_cheatsheet(model::TaskKind kind) {
  return kind == model::TaskKind::triton2triton ? "triton" : "hip";
}

std::string fill_template(const std::string& tmpl, const std::map<std::string, std::string>& values,
                          std::string* unknown) {
  std::string out;
  size_t pos = 0;
  for (;;) {
    size_t open = tmpl.find("{{", pos);
    size_t close = open == std::string::npos ? open : tmpl.find("}}", open + 2);
    if (close == std::string::npos) {
      out += tmpl.substr(pos);
      return out;
    }
    std::string name = tmpl.substr(open + 2, close - open - 2);
    out += tmpl.substr(pos, open - pos);
    auto it = values.find(name);
    if (it != values.end()) {
      out += it->second;
    } else {
      out += tmpl.substr(open, close + 2 - open);
      if (unknown) *unknown += (unknown->empty() ? "" : ", ") + name;
    }
    pos = close + 2;
  }
}

std::optional<std::string> build_prompt(const TaskJob& job, const std::string& device,
                                        const fs::path& dir, std::string* error, int warp_size) {
  std::string kind = kind_name(job.task.kind);
  auto tmpl = read_text(dir / (kind + ".md"));
  if (!tmpl) tmpl = read_text(dir / "optimize.md");
  if (!tmpl) {
    *error = "missing prompt template " + (dir / "optimize.md").string();
    return std::nullopt;
  }
  std::map<std::string, std::string> v;
  for (auto [key, name] : {std::pair{"arch_cheatsheet", arch_cheatsheet(device)},
                           std::pair{"language_cheatsheet", language_cheatsheet(job.task.kind)}}) {
    fs::path p = dir / "cheatsheets" / (name + ".md");
    auto text = read_text(p);
    if (!text) {
      *error = "missing cheatsheet " + p.string();
      return std::nullopt;
    }
    v[key] = *text;
  }
  std::string files;
  for (const auto& f : job.task.editable) files += "- `" + f.filename().string() + "`\n";
  v["task"] = job.task.name;
  v["kind"] = kind;
  v["summary"] = job.task.summary;
  v["notes"] = job.task.notes;
  v["device"] = device_text(device);
  if (warp_size != 0)
    v["device"] +=
        fmt::format(" Warp size: {} (`warpSize`, and the width of shuffles and votes).", warp_size);
  v["files"] = files;
  v["entry"] = entry_text(job.task);
  v["tensors"] = tensors_text(job.task);
  v["visible_shapes"] = shapes_text(job);
  v["gates"] = gates_text(job);
  v["tolerances"] = tolerances_text(job.task);
  std::string unknown;
  std::string out = fill_template(*tmpl, v, &unknown);
  if (!unknown.empty()) {
    *error = "unknown placeholder(s) in the prompt template: " + unknown;
    return std::nullopt;
  }
  // Empty fields (a task without notes) leave runs of blank lines: one is enough.
  for (size_t at; (at = out.find("\n\n\n")) != std::string::npos;) out.erase(at, 1);
  return out;
}

}  // namespace kta::engine
