// Params and tensors: fixed param values, tensor dims over declared params, input distributions.
#include <fmt/format.h>

#include "lang/sema.h"

namespace kta::lang {
namespace {

model::ScalarType scalar_type(const std::string& t) {
  if (t == "i32") return model::ScalarType::i32;
  if (t == "u32") return model::ScalarType::u32;
  if (t == "u64") return model::ScalarType::u64;
  if (t == "f32") return model::ScalarType::f32;
  if (t == "f64") return model::ScalarType::f64;
  if (t == "bool") return model::ScalarType::boolean;
  return model::ScalarType::i64;
}

model::DType dtype(const std::string& t) {
  if (t == "f16") return model::DType::f16;
  if (t == "bf16") return model::DType::bf16;
  if (t == "f64") return model::DType::f64;
  if (t == "i8") return model::DType::i8;
  if (t == "i32") return model::DType::i32;
  if (t == "i64") return model::DType::i64;
  if (t == "u8") return model::DType::u8;
  if (t == "u32") return model::DType::u32;
  if (t == "u64") return model::DType::u64;
  if (t == "bool") return model::DType::boolean;
  return model::DType::f32;
}

void lower_param(TaskContext& ctx, const ast::ParamDecl& p) {
  model::Param out{p.name, scalar_type(p.type), std::nullopt, p.where};
  if (p.value) {
    size_t before = ctx.diags().error_count();
    Ty t = ctx.sema.check_expr(*p.value, Scope{&ctx.module, {}, false});
    if (ctx.diags().error_count() == before) {
      bool is_float = p.type[0] == 'f', is_bool = p.type == "bool";
      Ty want = is_bool ? Ty::boolean : is_float ? Ty::number : Ty::integer;
      if (t != want && !(want == Ty::number && t == Ty::integer) && t != Ty::any) {
        ctx.diags().report(p.value->where, Msg::type_mismatch, fmt::format("param '{}'", p.name),
                           type_name(want), type_name(t));
      } else if (auto v = ctx.sema.eval_const(*p.value, ctx.module, "")) {
        if (is_float && std::holds_alternative<int64_t>(*v))
          v = static_cast<double>(std::get<int64_t>(*v));
        out.fixed = *v;
      }
    }
  }
  ctx.task.params.push_back(std::move(out));
}

void lower_tensor(TaskContext& ctx, const ast::TensorDecl& t) {
  model::Tensor out;
  out.name = t.name;
  out.role = t.role == "input"    ? model::TensorRole::input
             : t.role == "output" ? model::TensorRole::output
                                  : model::TensorRole::inout;
  out.dtype = dtype(t.dtype);
  out.where = t.where;
  for (const ast::ExprPtr& dim : t.dims) {
    size_t before = ctx.diags().error_count();
    Ty ty = ctx.sema.check_expr(*dim, ctx.scope);
    if (ctx.diags().error_count() != before) continue;
    if (ty != Ty::integer && ty != Ty::any)
      ctx.diags().report(dim->where, Msg::type_mismatch, fmt::format("a dim of '{}'", t.name),
                         "an integer", type_name(ty));
    out.shape.push_back(ctx.sema.lower_expr(dim, ctx.module));
  }
  if (out.role == model::TensorRole::output) {
    if (t.init) ctx.diags().report(t.init->where, Msg::output_with_distribution, t.name);
  } else if (!t.init) {
    ctx.diags().report(t.name_where, Msg::input_without_distribution, t.role, t.name);
  } else {
    out.init = distribution_of(ctx, t, out.dtype);
  }
  ctx.task.tensors.push_back(std::move(out));
}

}  // namespace

void check_tensors(TaskContext& ctx) {
  bool any_output = false;
  for (const ast::TaskItem& item : ctx.decl.items) {
    if (const auto* p = std::get_if<ast::ParamDecl>(&item)) {
      if (ctx.params.count(p->name) && ctx.params.at(p->name) == p) lower_param(ctx, *p);
    } else if (const auto* t = std::get_if<ast::TensorDecl>(&item)) {
      if (!ctx.tensors.count(t->name) || ctx.tensors.at(t->name) != t) continue;
      any_output |= t->role != "input";
      lower_tensor(ctx, *t);
    }
  }
  if (!any_output) ctx.diags().report(ctx.decl.name_where, Msg::no_outputs, ctx.decl.name);
}

}  // namespace kta::lang
