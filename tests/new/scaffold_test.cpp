// engine/scaffold without Python: each kind's skeleton and tasks made from hand-built module
// probes are written to a folder and loaded as `kta check` loads them (no error, no warning); the
// probe's edge cases (a size shared by tensors, sizes of 1, an output size nothing sets, names
// that collide, bool init args, f16 tensors, no size to vary) come out as documented.
#include "engine/scaffold/scaffold.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>

#include "engine/scaffold/from_module.h"
#include "lang/load.h"

namespace kta::engine {
namespace {

namespace fs = std::filesystem;

// The diagnostics of the scaffold's .kta once written out ("" when it loads clean).
std::string load_problems(const Scaffold& s) {
  std::string tmpl = (fs::temp_directory_path() / "kta-scaffold-test-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) return "cannot make a temporary folder";
  fs::path dir = tmpl;
  for (const ScaffoldFile& f : s.files) {
    fs::create_directories((dir / f.path).parent_path());
    std::ofstream(dir / f.path) << f.text;
  }
  lang::SourceManager sources;
  lang::DiagnosticEngine diags(sources);
  auto loaded = lang::load_file(dir / s.files.front().path, diags, lang::LoadOptions{});
  std::string problems = diags.str();
  if (!loaded && problems.empty()) problems = "not loaded";
  fs::remove_all(dir);
  return problems;
}

const ScaffoldFile* file_named(const Scaffold& s, const fs::path& path) {
  for (const ScaffoldFile& f : s.files)
    if (f.path == path) return &f;
  return nullptr;
}

ProbedTensor tensor(model::DType dtype, std::vector<int64_t> shape) {
  ProbedTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.min = -3;
  t.max = 3;
  t.mean = 0;
  t.std = 1;
  return t;
}

ProbedInitArg int_arg(const std::string& name, int64_t v) {
  ProbedInitArg a;
  a.name = name;
  a.i = v;
  return a;
}

ModuleProbe probe_of(std::vector<ProbedTensor> inputs, std::vector<ProbedTensor> outputs) {
  ModuleProbe p;
  p.torch_version = "1.13";
  p.class_name = "Model";
  p.inputs = std::move(inputs);
  p.outputs = std::move(outputs);
  return p;
}

TEST(Skeleton, EveryKindLoadsCleanWithHolesAndASolutionStub) {
  struct Kind {
    model::TaskKind kind;
    const char* editable;
  };
  for (Kind k : {Kind{model::TaskKind::hip2hip, "t.hip"}, Kind{model::TaskKind::torch2hip, "t.hip"},
                 Kind{model::TaskKind::triton2triton, "t.py"}}) {
    Scaffold s = skeleton_task(k.kind, "t");
    ASSERT_TRUE(s.error.empty());
    EXPECT_EQ(s.files.front().path, "t.kta");
    EXPECT_EQ(load_problems(s), "");
    EXPECT_EQ(formatted_kta(s.files.front().text, "t.kta"), s.files.front().text);
    EXPECT_NE(s.files.front().text.find("// TODO(author):"), std::string::npos);
    const ScaffoldFile* stub = file_named(s, fs::path("solutions") / "t" / k.editable);
    const ScaffoldFile* editable = file_named(s, k.editable);
    ASSERT_NE(stub, nullptr);
    ASSERT_NE(editable, nullptr);
    EXPECT_TRUE(stub->text.ends_with(editable->text));  // the starting code under a comment
    EXPECT_NE(stub->text.find("TODO(author):"), std::string::npos);
  }
}

TEST(Skeleton, NamesThatCannotNameATask) {
  EXPECT_EQ(task_name_problem("my_kernel2"), "");
  EXPECT_NE(task_name_problem("2d_conv"), "");
  EXPECT_NE(task_name_problem("my-kernel"), "");
  EXPECT_NE(task_name_problem("float"), "");
  EXPECT_NE(task_name_problem("lambda"), "");
  EXPECT_NE(task_name_problem("nan"), "");
  EXPECT_NE(task_name_problem("__x"), "");
}

TEST(FromModule, OneParamPerSizeSharedAcrossTensorsAndSizesOfOneStayLiterals) {
  ModuleProbe p = probe_of({tensor(model::DType::f32, {4, 1, 16}), tensor(model::DType::f32, {16})},
                           {tensor(model::DType::f32, {4, 1, 16})});
  p.forward_params = {"x", "w"};
  Scaffold s = scaffold_from_module("t", p, "m.py", "");
  ASSERT_EQ(s.error, "");
  const std::string& kta = s.files.front().text;
  EXPECT_NE(kta.find("param D0: i64  // 4: x dim 0, y dim 0\n"), std::string::npos) << kta;
  EXPECT_NE(kta.find("param D1: i64  // 16: x dim 2, w dim 0, y dim 2\n"), std::string::npos);
  EXPECT_NE(kta.find("input  x: f32[D0, 1, D1]"), std::string::npos);
  EXPECT_NE(kta.find("input  w: f32[D1]"), std::string::npos);
  EXPECT_NE(kta.find("output y: f32[D0, 1, D1]"), std::string::npos);
  EXPECT_NE(kta.find("module Model()"), std::string::npos);
  EXPECT_NE(kta.find("bytes 4 * D0 * D1 + 4 * D1 + 4 * D0 * D1"), std::string::npos);
  EXPECT_EQ(load_problems(s), "");
}

TEST(FromModule, AnOutputSizeNothingSetsIsALiteralAndAHole) {
  ModuleProbe p =
      probe_of({tensor(model::DType::f32, {8, 5})}, {tensor(model::DType::f32, {8, 10})});
  Scaffold s = scaffold_from_module("t", p, "m.py", "");
  const std::string& kta = s.files.front().text;
  EXPECT_NE(kta.find("output y: f32[D0, 10]"), std::string::npos) << kta;
  EXPECT_NE(kta.find("// TODO(author): y dim 1 (10) is no input size nor init arg"),
            std::string::npos);
  EXPECT_EQ(load_problems(s), "");
}

TEST(FromModule, InitArgsSetSizesOrBecomeFixedParams) {
  ModuleProbe p =
      probe_of({tensor(model::DType::f32, {3, 32})}, {tensor(model::DType::f32, {3, 64})});
  ProbedInitArg eps;
  eps.name = "eps";
  eps.kind = ProbedInitArg::Kind::real;
  eps.f = 1e-05;
  ProbedInitArg flag = int_arg("bias", 1);
  flag.kind = ProbedInitArg::Kind::boolean;
  // dim=3 equals a size but is an index by its name; out_features=64 sets y's size.
  p.init_args = {int_arg("in_features", 32), int_arg("out_features", 64), int_arg("dim", 3), eps,
                 flag};
  Scaffold s = scaffold_from_module("t", p, "m.py", "");
  const std::string& kta = s.files.front().text;
  EXPECT_NE(kta.find("// 32: x dim 1, init arg in_features\n"), std::string::npos) << kta;
  EXPECT_NE(kta.find("// 64: y dim 1, init arg out_features\n"), std::string::npos);
  EXPECT_NE(kta.find("param dim: i64 = 3"), std::string::npos);
  EXPECT_NE(kta.find("param eps: f64 = 1e-05"), std::string::npos);
  EXPECT_NE(kta.find("param bias: i64 = 1"), std::string::npos);
  EXPECT_NE(kta.find("the bool True (Model gets 1)"), std::string::npos);
  EXPECT_NE(kta.find("module Model(D1, D2, dim, eps, bias)"), std::string::npos);
  const ScaffoldFile* hip = file_named(s, "t.hip");
  ASSERT_NE(hip, nullptr);
  EXPECT_NE(hip->text.find("const double eps = call->params[4].f;"), std::string::npos)
      << hip->text;
  EXPECT_NE(hip->text.find("call->num_params != 6"), std::string::npos);
  EXPECT_EQ(load_problems(s), "");
}

TEST(FromModule, NamesThatCollideOrAreReservedGetAnUnderscore) {
  ModuleProbe p = probe_of({tensor(model::DType::f32, {6}), tensor(model::DType::f32, {6})},
                           {tensor(model::DType::f32, {6})});
  p.forward_params = {"y", "D0"};
  p.init_args = {int_arg("float", 0)};
  Scaffold s = scaffold_from_module("t", p, "m.py", "");
  const std::string& kta = s.files.front().text;
  EXPECT_NE(kta.find("param D0_: i64"), std::string::npos) << kta;
  EXPECT_NE(kta.find("param float_: i64 = 0"), std::string::npos);
  EXPECT_NE(kta.find("input  y: f32[D0_]"), std::string::npos);
  EXPECT_NE(kta.find("input  D0: f32[D0_]"), std::string::npos);
  EXPECT_NE(kta.find("output y_: f32[D0_]"), std::string::npos);
  EXPECT_EQ(load_problems(s), "");
}

TEST(FromModule, HalfTensorsGetTheirHeadersAndTolerance) {
  ModuleProbe p =
      probe_of({tensor(model::DType::f16, {8, 8})}, {tensor(model::DType::bf16, {8, 8})});
  Scaffold s = scaffold_from_module("t", p, "m.py", "");
  EXPECT_NE(s.files.front().text.find("tolerance y = std.tolerances.bf16"), std::string::npos);
  const ScaffoldFile* hip = file_named(s, "t.hip");
  ASSERT_NE(hip, nullptr);
  EXPECT_NE(hip->text.find("#include <hip/hip_fp16.h>"), std::string::npos);
  EXPECT_NE(hip->text.find("#include <hip/hip_bf16.h>"), std::string::npos);
  EXPECT_NE(hip->text.find("const __half* x ="), std::string::npos);
  EXPECT_NE(hip->text.find("sizeof(__hip_bfloat16) * (size_t)D0 * (size_t)D0"), std::string::npos);
  EXPECT_EQ(load_problems(s), "");
}

TEST(FromModule, InputDistributionsFollowWhatGetInputsDrew) {
  ProbedTensor uniform = tensor(model::DType::f32, {8});
  uniform.min = 0.01;
  uniform.max = 0.99;
  uniform.mean = 0.5;
  uniform.std = 0.29;
  ProbedTensor labels = tensor(model::DType::i64, {8});
  labels.min = 0;
  labels.max = 9;
  ProbedTensor shifted = tensor(model::DType::f32, {8});
  shifted.mean = 3;
  shifted.std = 2;
  ModuleProbe p = probe_of({uniform, labels, shifted}, {tensor(model::DType::f32, {8})});
  Scaffold s = scaffold_from_module("t", p, "m.py", "");
  const std::string& kta = s.files.front().text;
  EXPECT_NE(kta.find("input  x0: f32[D0] = std.inputs.uniform(lo: 0, hi: 1)"), std::string::npos)
      << kta;
  EXPECT_NE(kta.find("input  x1: i64[D0] = std.inputs.integers(lo: 0, hi: 10)"), std::string::npos);
  EXPECT_NE(kta.find("input  x2: f32[D0] = std.inputs.normal(mean: 3, std: 2)"), std::string::npos);
  EXPECT_EQ(load_problems(s), "");
}

TEST(FromModule, NoSizeToVaryIsAnError) {
  ModuleProbe p = probe_of({tensor(model::DType::f32, {1, 1})}, {tensor(model::DType::f32, {})});
  Scaffold s = scaffold_from_module("t", p, "m.py", "");
  EXPECT_NE(s.error.find("no tensor of the module has a dimension larger than 1"),
            std::string::npos);
  EXPECT_TRUE(s.files.empty());
}

}  // namespace
}  // namespace kta::engine
