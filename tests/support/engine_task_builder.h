// Builds small checked-model tasks by hand for executor tests, without the .kta front end.
#pragma once

#include <memory>
#include <string>

#include "lang/ast.h"
#include "lang/model.h"

namespace kta::test {

inline model::ExprRef int_expr(int64_t v) {
  auto e = std::make_shared<ast::Expr>();
  e->node = ast::IntLit{v, std::to_string(v)};
  return e;
}

inline model::ExprRef name_expr(const std::string& name) {
  auto e = std::make_shared<ast::Expr>();
  e->node = ast::NameRef{name};
  return e;
}

inline model::ExprRef ceil_div_expr(const std::string& name, int64_t d) {
  // (N + d - 1) / d
  auto sum = std::make_shared<ast::Expr>();
  sum->node = ast::Binary{ast::BinOp::add, name_expr(name), int_expr(d - 1)};
  auto e = std::make_shared<ast::Expr>();
  e->node = ast::Binary{ast::BinOp::div, sum, int_expr(d)};
  return e;
}

// z = x + y over f32[N]: kernel(x, y, z, N), reference and baseline files given.
inline model::Task vector_add_task(const std::string& name, const std::filesystem::path& dir,
                                   const std::string& reference_file,
                                   const std::string& baseline_file) {
  model::Task t;
  t.name = name;
  t.dir = dir;
  t.file = dir / (name + ".kta");
  t.content_hash = "test-" + name;
  t.params.push_back({"N", model::ScalarType::i64, std::nullopt, {}});
  for (const char* n : {"x", "y"}) {
    model::Tensor in;
    in.name = n;
    in.role = model::TensorRole::input;
    in.shape = {name_expr("N")};
    in.init = model::Distribution{"normal", {{"mean", {0.0}}, {"std", {1.0}}}, {}};
    t.tensors.push_back(in);
  }
  model::Tensor out;
  out.name = "z";
  out.role = model::TensorRole::output;
  out.shape = {name_expr("N")};
  t.tensors.push_back(out);
  model::LaunchGeometry g;
  g.grid[0] = ceil_div_expr("N", 64);
  g.block[0] = int_expr(64);
  auto entry = [&](const std::string& file, const std::string& symbol) {
    model::Entry e;
    e.file = dir / file;
    e.symbol = symbol;
    e.args = {"x", "y", "z", "N"};
    e.launch = g;
    return e;
  };
  t.reference = entry(reference_file, "add_ref");
  t.baseline = entry(baseline_file, "add");
  t.candidate = t.baseline;  // as sema fills it when a task declares no candidate
  t.editable = {dir / baseline_file};
  t.visible = {{{"N", 64}}, {{"N", 100}}};
  t.heldout = {{{"N", 37}}, {{"N", 513}}};
  t.tolerances["z"] = model::Tolerance{1e-6, 1e-6, 0, false, ""};
  t.gates.correctness_seeds = 2;
  return t;
}

}  // namespace kta::test
