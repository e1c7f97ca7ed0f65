// The .kta grammar: PEGTL rules only, one per line. Actions (lang/parse.cpp) build the AST; the
// error table (lang/parse.cpp, messages in lang/messages.h) names what each must<> expected.
#pragma once

#include <tao/pegtl.hpp>

namespace kta::lang::grammar {

using namespace tao::pegtl;

// ---- lexical ----
struct line_comment : seq<two<'/'>, star<not_one<'\n'>>> {};
struct block_comment_rest : until<string<'*', '/'>> {};
struct comment_open : string<'/', '*'> {};
struct block_comment : if_must<comment_open, block_comment_rest> {};
struct blank : sor<one<' ', '\t', '\r'>, block_comment> {};
struct sp : star<blank> {};
struct ws : star<sor<blank, line_comment, one<'\n'>>> {};
struct eol_ahead : sor<one<'\n'>, eof, at<two<'/'>>, at<one<'}'>>> {};
struct end_stmt : seq<sp, sor<one<';'>, at<eol_ahead>>> {};

struct ident_first : ranges<'a', 'z', 'A', 'Z', '_'> {};
struct ident_other : ranges<'a', 'z', 'A', 'Z', '0', '9', '_'> {};
struct ident : seq<ident_first, star<ident_other>> {};
struct qname : list<ident, one<'.'>> {};
template <typename Key>
struct kw : seq<Key, not_at<ident_other>> {};

// ---- literals ----
struct digits : seq<digit, star<opt<one<'_'>>, digit>> {};
struct hex_number : seq<one<'0'>, one<'x', 'X'>, plus<xdigit>> {};
struct exponent_digits : plus<digit> {};
struct exponent : seq<one<'e', 'E'>, opt<one<'+', '-'>>, must<exponent_digits>> {};
struct fraction : seq<one<'.'>, digits> {};
struct float_number : seq<digits, sor<seq<fraction, opt<exponent>>, exponent>> {};
struct unit_suffix : sor<one<'%'>, plus<alpha>> {};
struct number : seq<sor<hex_number, float_number, digits>, opt<unit_suffix>> {};

struct escape_char : one<'"', '\\', 'n', 't'> {};
struct escape : seq<one<'\\'>, must<escape_char>> {};
struct string_char : sor<escape, not_one<'"', '\\', '\n'>> {};
struct string_rest : seq<star<string_char>, one<'"'>> {};
struct text_block_rest : until<string<'"', '"', '"'>> {};
struct text_open : string<'"', '"', '"'> {};
struct text_block : if_must<text_open, text_block_rest> {};
struct string_open : one<'"'> {};
struct plain_string : if_must<string_open, string_rest> {};
struct string_lit : sor<text_block, plain_string> {};
struct bool_lit : sor<kw<string<'t', 'r', 'u', 'e'>>, kw<string<'f', 'a', 'l', 's', 'e'>>> {};
struct float_word : sor<kw<string<'i', 'n', 'f'>>, kw<string<'n', 'a', 'n'>>> {};

// ---- expressions ----
// Blanks around a binary operator: a line break only inside brackets and calls, where the parse
// state's `depth` is positive (without a state, as in grammar tests, line breaks are allowed).
struct op_ws {
  using rule_t = op_ws;
  using subs_t = empty_list;
  template <apply_mode A, rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename ParseInput, typename... States>
  static bool match(ParseInput& in, States&&... st) {
    if constexpr (sizeof...(States) == 1) {
      bool flat = false;
      ((flat = st.depth == 0), ...);
      if (flat) return Control<sp>::template match<A, M, Action, Control>(in, st...);
    }
    return Control<ws>::template match<A, M, Action, Control>(in, st...);
  }
};
struct expr;
struct close_paren : one<')'> {};
struct close_bracket : one<']'> {};
struct comma : seq<ws, one<','>, ws> {};
struct paren_open : one<'('> {};
struct list_open : one<'['> {};
struct paren_expr
    : seq<paren_open, ws, must<expr>, star<comma, must<expr>>, ws, must<close_paren>> {};
struct list_expr
    : seq<list_open, ws, opt<expr, star<comma, expr>, opt<comma>>, ws, must<close_bracket>> {};
struct arg_key : seq<ident, sp, one<':'>, not_at<one<':'>>> {};
struct span_tail : seq<sp, two<'.'>, ws, must<expr>> {};
struct arg_value : seq<expr, opt<span_tail>> {};
struct arg : sor<seq<arg_key, ws, must<arg_value>>, arg_value> {};
struct call_head : seq<qname, at<one<'('>>> {};
struct call_args
    : seq<one<'('>, ws, opt<arg, star<comma, must<arg>>, opt<comma>>, ws, must<close_paren>> {};
struct call_expr : seq<call_head, must<call_args>> {};
struct name_ref : qname {};
struct primary
    : sor<number, string_lit, bool_lit, float_word, paren_expr, list_expr, call_expr, name_ref> {};
struct unary;
struct unary_op : seq<one<'-', '!'>, not_at<one<'='>>> {};
struct prefixed : seq<unary_op, sp, must<unary>> {};
struct unary : sor<prefixed, primary> {};
struct mul_op : sor<one<'*'>, seq<one<'/'>, not_at<one<'/', '*'>>>, one<'%'>> {};
struct mul_tail : seq<mul_op, op_ws, must<unary>> {};
struct mul_expr : seq<unary, star<op_ws, mul_tail>> {};
struct add_op : one<'+', '-'> {};
struct add_tail : seq<add_op, op_ws, must<mul_expr>> {};
struct add_expr : seq<mul_expr, star<op_ws, add_tail>> {};
struct shift_op : sor<string<'<', '<'>, string<'>', '>'>> {};
struct shift_tail : seq<shift_op, op_ws, must<add_expr>> {};
struct shift_expr : seq<add_expr, star<op_ws, shift_tail>> {};
struct cmp_op : sor<string<'<', '='>, string<'>', '='>, string<'=', '='>, string<'!', '='>,
                    seq<one<'<', '>'>, not_at<one<'<', '>'>>>> {};
struct cmp_tail : seq<cmp_op, op_ws, must<shift_expr>> {};
struct cmp_expr : seq<shift_expr, star<op_ws, cmp_tail>> {};
struct and_tail : seq<string<'&', '&'>, op_ws, must<cmp_expr>> {};
struct and_expr : seq<cmp_expr, star<op_ws, and_tail>> {};
struct or_tail : seq<string<'|', '|'>, op_ws, must<and_expr>> {};
struct expr : seq<and_expr, star<op_ws, or_tail>> {};

// ---- settings ----
struct open_brace : one<'{'> {};
struct equals : one<'='> {};
struct block_key : ident {};
struct block_eq : seq<one<'='>, sp> {};
struct block_setting : seq<block_key, sp, opt<block_eq>, must<expr>> {};
struct block_close : one<'}'> {};
struct settings_block
    : seq<open_brace, ws, star<block_setting, opt<sp, one<';'>>, ws>, must<block_close>> {};
struct value_comma : seq<sp, one<','>, ws> {};
struct value_list : seq<expr, star<sor<value_comma, sp>, expr>> {};
struct setting_key : ident {};
struct setting_subject : seq<ident, sp, at<one<'=', '{'>>> {};
struct setting_eq : seq<one<'='>, sp> {};
struct setting_value : sor<settings_block, value_list> {};
struct line_setting : seq<setting_key, sp, opt<setting_subject>, opt<setting_eq>,
                          must<setting_value>, must<end_stmt>> {};

// ---- task statements ----
struct scalar_type
    : sor<kw<string<'i', '3', '2'>>, kw<string<'i', '6', '4'>>, kw<string<'u', '3', '2'>>,
          kw<string<'u', '6', '4'>>, kw<string<'f', '3', '2'>>, kw<string<'f', '6', '4'>>,
          kw<string<'b', 'o', 'o', 'l'>>> {};
struct dtype
    : sor<kw<string<'f', '1', '6'>>, kw<string<'b', 'f', '1', '6'>>, kw<string<'f', '3', '2'>>,
          kw<string<'f', '6', '4'>>, kw<string<'i', '8'>>, kw<string<'i', '3', '2'>>,
          kw<string<'i', '6', '4'>>, kw<string<'u', '8'>>, kw<string<'u', '3', '2'>>,
          kw<string<'u', '6', '4'>>, kw<string<'b', 'o', 'o', 'l'>>> {};
struct colon : seq<sp, one<':'>, sp> {};
struct param_value : seq<sp, one<'='>, ws, must<expr>> {};
struct param_name : ident {};
struct param_stmt : if_must<kw<string<'p', 'a', 'r', 'a', 'm'>>, sp, param_name, colon, scalar_type,
                            opt<param_value>, end_stmt> {};
struct tensor_role
    : sor<kw<string<'i', 'n', 'p', 'u', 't'>>, kw<string<'o', 'u', 't', 'p', 'u', 't'>>,
          kw<string<'i', 'n', 'o', 'u', 't'>>> {};
struct dims : seq<one<'['>, ws, opt<expr, star<comma, must<expr>>>, ws, must<close_bracket>> {};
struct tensor_init : seq<sp, one<'='>, ws, must<expr>> {};
struct tensor_name : ident {};
struct tensor_stmt
    : if_must<tensor_role, sp, tensor_name, colon, dtype, sp, dims, opt<tensor_init>, end_stmt> {};
struct entry_which : sor<kw<string<'r', 'e', 'f', 'e', 'r', 'e', 'n', 'c', 'e'>>,
                         kw<string<'b', 'a', 's', 'e', 'l', 'i', 'n', 'e'>>,
                         kw<string<'c', 'a', 'n', 'd', 'i', 'd', 'a', 't', 'e'>>> {};
struct flavor : sor<kw<string<'h', 'i', 'p'>>, kw<string<'t', 'o', 'r', 'c', 'h'>>,
                    kw<string<'t', 'r', 'i', 't', 'o', 'n'>>> {};
struct entry_file : plain_string {};
struct entry_symbol : ident {};
struct entry_args
    : seq<one<'('>, ws, opt<arg, star<comma, must<arg>>, opt<comma>>, ws, must<close_paren>> {};
struct grid_clause : seq<kw<string<'g', 'r', 'i', 'd'>>, sp, must<expr>> {};
struct block_clause : seq<kw<string<'b', 'l', 'o', 'c', 'k'>>, sp, must<expr>> {};
struct shared_clause : seq<kw<string<'s', 'h', 'a', 'r', 'e', 'd'>>, sp, must<expr>> {};
struct launch_clauses : star<sp, sor<grid_clause, block_clause, shared_clause>> {};
struct kernel_mode : seq<kw<string<'k', 'e', 'r', 'n', 'e', 'l'>>, sp, must<entry_symbol>,
                         must<entry_args>, launch_clauses> {};
struct launcher_mode
    : seq<kw<string<'l', 'a', 'u', 'n', 'c', 'h', 'e', 'r'>>, opt<sp, entry_symbol>> {};
struct module_mode
    : seq<kw<string<'m', 'o', 'd', 'u', 'l', 'e'>>, sp, must<entry_symbol>, opt<entry_args>> {};
struct function_mode
    : seq<kw<string<'f', 'u', 'n', 'c', 't', 'i', 'o', 'n'>>, sp, must<entry_symbol>> {};
struct entry_mode : sor<kernel_mode, launcher_mode, module_mode, function_mode> {};
struct entry_stmt : if_must<entry_which, sp, flavor, sp, entry_file, sp, entry_mode, end_stmt> {};
struct grid_which : sor<kw<string<'v', 'i', 's', 'i', 'b', 'l', 'e'>>,
                        kw<string<'h', 'e', 'l', 'd', 'o', 'u', 't'>>> {};
struct axis_name : ident {};
struct axis_values : expr {};
struct axis_in : seq<kw<string<'i', 'n'>>, sp, must<axis_values>> {};
struct axis_derived : seq<one<'='>, ws, must<expr>> {};
struct where_item : if_must<kw<string<'w', 'h', 'e', 'r', 'e'>>, sp, expr, end_stmt> {};
struct axis_rest : sor<axis_in, axis_derived> {};
struct axis_tuple_open : one<'('> {};
struct axis_tuple : seq<axis_tuple_open, ws, must<axis_name>, star<comma, must<axis_name>>, ws,
                        must<close_paren>> {};
struct axis_item : seq<sor<axis_tuple, axis_name>, sp, must<axis_rest>, must<end_stmt>> {};
struct grid_item : sor<where_item, axis_item> {};
struct grid_close : one<'}'> {};
struct grid_block : seq<open_brace, ws, star<grid_item, ws>, must<grid_close>> {};
struct grid_generator : seq<one<'='>, ws, must<expr>> {};
struct grid_body : sor<grid_block, grid_generator> {};
struct shapes_stmt
    : if_must<kw<string<'s', 'h', 'a', 'p', 'e', 's'>>, sp, grid_which, sp, grid_body, end_stmt> {};
struct task_item : sor<param_stmt, tensor_stmt, entry_stmt, shapes_stmt, line_setting> {};
struct task_close : one<'}'> {};
struct task_body : seq<open_brace, ws, star<task_item, ws>, must<task_close>> {};

// ---- declarations ----
struct module_path : qname {};
struct import_alias : ident {};
struct import_as : seq<sp, kw<string<'a', 's'>>, sp, must<import_alias>> {};
struct import_decl
    : if_must<kw<string<'i', 'm', 'p', 'o', 'r', 't'>>, sp, module_path, opt<import_as>, end_stmt> {
};
struct const_name : ident {};
struct const_decl
    : if_must<kw<string<'c', 'o', 'n', 's', 't'>>, sp, const_name, sp, equals, ws, expr, end_stmt> {
};
struct preset_kind : sor<kw<string<'t', 'o', 'l', 'e', 'r', 'a', 'n', 'c', 'e'>>,
                         kw<string<'t', 'i', 'm', 'i', 'n', 'g'>>> {};
struct preset_name : ident {};
struct preset_decl : if_must<preset_kind, sp, preset_name, ws, settings_block, end_stmt> {};
struct sig_type : sor<seq<one<'['>, ident, one<']'>>, ident> {};
struct sig_default : seq<sp, one<'='>, ws, must<expr>> {};
struct sig_name : ident {};
struct param_sig : seq<sig_name, colon, must<sig_type>, opt<sig_default>> {};
struct param_sigs : seq<one<'('>, ws, opt<param_sig, star<comma, must<param_sig>>, opt<comma>>, ws,
                        must<close_paren>> {};
struct builtin_kw : kw<string<'b', 'u', 'i', 'l', 't', 'i', 'n'>> {};
struct agent_close : one<'}'> {};
struct agent_body : seq<open_brace, ws, star<line_setting, ws>, must<agent_close>> {};
struct plan_close : one<'}'> {};
struct plan_body : seq<open_brace, ws, star<line_setting, ws>, must<plan_close>> {};
struct callable_body : sor<builtin_kw, agent_body> {};
struct callable_kind : sor<kw<string<'a', 'g', 'e', 'n', 't'>>,
                           kw<string<'d', 'i', 's', 't', 'r', 'i', 'b', 'u', 't', 'i', 'o', 'n'>>,
                           kw<string<'g', 'e', 'n', 'e', 'r', 'a', 't', 'o', 'r'>>> {};
struct callable_name : ident {};
struct callable_decl
    : if_must<callable_kind, sp, callable_name, sp, param_sigs, ws, callable_body, end_stmt> {};
struct task_name : ident {};
struct task_decl : if_must<kw<string<'t', 'a', 's', 'k'>>, sp, task_name, ws, task_body, end_stmt> {
};
struct plan_name : ident {};
struct plan_decl : if_must<kw<string<'p', 'l', 'a', 'n'>>, sp, plan_name, ws, plan_body, end_stmt> {
};
struct declaration
    : sor<import_decl, const_decl, preset_decl, callable_decl, task_decl, plan_decl> {};
struct file_end : eof {};
struct file : seq<opt<utf8::bom>, ws, star<declaration, ws>, must<file_end>> {};

}  // namespace kta::lang::grammar
