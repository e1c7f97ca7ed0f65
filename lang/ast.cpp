// Small helpers over the syntax tree.
#include "lang/ast.h"

namespace kta::ast {

std::string_view binop_text(BinOp op) {
  switch (op) {
    case BinOp::mul:
      return "*";
    case BinOp::div:
      return "/";
    case BinOp::mod:
      return "%";
    case BinOp::add:
      return "+";
    case BinOp::sub:
      return "-";
    case BinOp::shl:
      return "<<";
    case BinOp::shr:
      return ">>";
    case BinOp::lt:
      return "<";
    case BinOp::le:
      return "<=";
    case BinOp::gt:
      return ">";
    case BinOp::ge:
      return ">=";
    case BinOp::eq:
      return "==";
    case BinOp::ne:
      return "!=";
    case BinOp::land:
      return "&&";
    case BinOp::lor:
      return "||";
  }
  return "?";
}

SourceRange range_of(const Decl& d) {
  return std::visit([](const auto& x) { return x.where; }, d);
}
SourceRange range_of(const TaskItem& item) {
  return std::visit([](const auto& x) { return x.where; }, item);
}

}  // namespace kta::ast
