// The checked model: what sema hands to the engine. Plain data, resolved names, absolute paths;
// shape-dependent quantities stay as expressions evaluated per shape point (lang/eval.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lang/source.h"

namespace kta::ast {
struct Expr;
}

namespace kta::model {

using ExprRef = std::shared_ptr<const ast::Expr>;

// New dtypes go at the end: the numbering is the launch ABI's (enum kta_dtype) and the reference
// cache's.
enum class DType { f16, bf16, f32, f64, i8, i32, i64, u8, boolean, u32, u64 };

// The C type a HIP kernel parameter has for a tensor of this dtype ("float", "__half", ...).
inline const char* hip_c_type(DType dtype) {
  switch (dtype) {
    case DType::f16:
      return "__half";
    case DType::bf16:
      return "__hip_bfloat16";
    case DType::f32:
      return "float";
    case DType::f64:
      return "double";
    case DType::i8:
      return "int8_t";
    case DType::i32:
      return "int32_t";
    case DType::i64:
      return "int64_t";
    case DType::u8:
      return "uint8_t";
    case DType::boolean:
      return "bool";
    case DType::u32:
      return "uint32_t";
    case DType::u64:
      return "uint64_t";
  }
  return "void";
}

enum class ScalarType { i32, i64, u32, u64, f32, f64, boolean };
enum class TaskKind { hip2hip, triton2triton, torch2hip };
enum class Flavor { hip, torch, triton };
enum class EntryMode { kernel, launcher, module, function };
enum class TensorRole { input, output, inout };

// A value of the language after evaluation. Durations are nanoseconds, sizes are bytes.
using Value = std::variant<int64_t, double, bool, std::string>;

// One concrete shape point: param name -> value, in the grid's axis order.
using ShapePoint = std::vector<std::pair<std::string, int64_t>>;

struct Param {
  std::string name;
  ScalarType type = ScalarType::i64;
  std::optional<Value> fixed;  // set: a fixed scalar; unset: a shape parameter (grid axis)
  lang::SourceRange where;
};

struct Distribution;

// One argument of a distribution: a number, a list of numbers (categorical weights) or a list of
// distributions (mixture components).
struct DistributionArg {
  std::string name;
  std::vector<double> numbers;  // a number argument: its one value
  bool is_list = false;
  std::vector<Distribution> components;  // a list of distributions
};

// An input distribution, e.g. normal(mean: 0, std: 2); `name` is the built-in generator.
struct Distribution {
  std::string name;                   // normal uniform integers ... categorical power_law mixture
  std::vector<DistributionArg> args;  // in declaration order, defaults filled in
  lang::SourceRange where;            // the call, for messages; empty when built in code

  const DistributionArg* arg(std::string_view key) const {
    for (const DistributionArg& a : args)
      if (a.name == key) return &a;
    return nullptr;
  }
};

struct Tensor {
  std::string name;
  TensorRole role = TensorRole::input;
  DType dtype = DType::f32;
  std::vector<ExprRef> shape;        // empty: a scalar tensor
  std::optional<Distribution> init;  // inputs and inouts
  lang::SourceRange where;
};

struct LaunchGeometry {
  ExprRef grid[3];  // null: 1
  ExprRef block[3];
  ExprRef shared_bytes;  // null: 0
};

struct Entry {
  Flavor flavor = Flavor::hip;
  EntryMode mode = EntryMode::kernel;
  std::filesystem::path file;            // absolute
  std::string symbol;                    // kernel, launcher, module class or function name
  std::vector<std::string> args;         // kernel mode: tensor/param names in parameter order
  std::optional<LaunchGeometry> launch;  // kernel mode
  std::vector<ExprRef> init_args;        // torch module mode
  lang::SourceRange where;
};

struct Tolerance {
  double atol = 0;
  double rtol = 0;
  double max_mismatch = 0;  // fraction of elements allowed to mismatch
  bool nan_equal = false;
  std::string preset;  // qualified preset name when one was used
  // Set where the task wrote a field over params (`atol 1e-7 * K`): evaluated at each shape
  // point (lang::tolerance_at), and the double above is unused.
  ExprRef atol_expr, rtol_expr, max_mismatch_expr;
  bool per_point() const { return atol_expr || rtol_expr || max_mismatch_expr; }
};

struct Timing {
  enum class Mode { cold, batch } mode = Mode::cold;
  int min_samples = 10;
  int max_samples = 1000;
  double max_noise = 0.005;  // relative standard deviation
  int64_t budget_ns = 2'000'000'000;
  int warmup = 1;
};

struct Gates {
  int correctness_seeds = 3;
  std::optional<double> min_speedup;         // performance gate; unset: timing only, no gate
  std::optional<std::string> audit_fail_on;  // "error" | "warning"; unset: audit is reporting only
  // `gate heldout { require correct | none }`: a candidate wrong on held-out points fails the
  // task (the default: a kernel that is wrong on shapes it was not shown is a wrong kernel).
  bool heldout_require_correct = true;
};

// A held-out grid: explicit points, or a generator expanded by the engine from a run secret.
struct HeldoutGenerator {
  std::string name;  // e.g. "perturb"
  int count = 8;
  std::map<std::string, Value> args;
  // The visible grid's derived axes that are params (recomputed on each drawn point, in order)
  // and its `where` filters (a drawn point must pass them).
  std::vector<std::pair<std::string, ExprRef>> derived;
  std::vector<ExprRef> filters;
  // The visible grid's tuple axes, by member names: perturb moves each as one unit.
  std::vector<std::vector<std::string>> tuples;
};

struct Task {
  std::string name;
  std::filesystem::path file;  // absolute path of the .kta file
  std::filesystem::path dir;   // its folder; entry and editable paths are under it
  TaskKind kind = TaskKind::hip2hip;
  std::string summary;
  std::string notes;
  std::vector<Param> params;
  std::vector<Tensor> tensors;
  Entry reference;
  Entry baseline;
  Entry candidate;  // what the agent edits; the baseline entry when not declared
  std::vector<std::filesystem::path> editable;  // absolute
  std::vector<ShapePoint> visible;
  std::vector<ShapePoint> heldout;  // explicit points
  std::optional<HeldoutGenerator> heldout_generator;
  std::map<std::string, Tolerance> tolerances;  // output/inout name -> tolerance
  Gates gates;
  Timing timing;
  ExprRef bytes;  // null when not annotated
  ExprRef flops;
  std::string content_hash;  // hash of the task file and every file it references
  lang::SourceRange where;
};

// `file "PATH", """CONTENT"""` of an agent: written into the agent's home for each run (a CLI's
// configuration), both filled like the command. PATH is relative to the home.
struct AgentFile {
  std::string path, content;
  bool operator==(const AgentFile&) const = default;
};

struct AgentDecl {
  std::string name;                        // qualified, e.g. std.agents.claude_code
  bool builtin = false;                    // replay, baseline
  std::vector<std::string> command;        // template strings with {placeholders}
  std::vector<std::string> check;          // version-check command, may be empty
  std::map<std::string, std::string> env;  // an entry that fills to "" is not set
  std::vector<AgentFile> files;
  // `login "PATH", ...`: files of the user's home (a CLI's login) copied to the same place in the
  // agent's home before the run when they exist, and removed from it afterwards.
  std::vector<std::string> logins;
  // `key "VAR", ...`: the variables the CLI reads its API key from (filled like the command);
  // `kta agents check` says whether one is set or a login exists.
  std::vector<std::string> keys;
  int64_t timeout_ns = 3600'000'000'000;
  int64_t grace_ns = 10'000'000'000;  // after TERM on timeout, before KILL
};

// An agent as a plan uses it: the declaration plus the arguments of this use.
struct AgentUse {
  AgentDecl decl;
  std::map<std::string, Value> args;
};

struct Plan {
  std::string name;
  std::filesystem::path file;
  std::vector<Task> tasks;
  std::vector<AgentUse> agents;
  std::string device = "auto";  // auto | cpu | hip | hip:N
  // `device cpu(warp: 32)`: the warp size asked for, 32 or 64; 0: the device's own (64 on the cpu
  // device, as on AMD; the hardware's on the hip device, which rejects any other).
  int warp_size = 0;
  bool heldout = true;
  int repeat = 1;
  std::filesystem::path output;  // absolute
  std::optional<Timing> timing;  // overrides each task's timing when set
  std::string sandbox = "auto";  // auto | on | off: command agents under bubblewrap
  bool network = true;           // command agents may reach the network
};

}  // namespace kta::model
