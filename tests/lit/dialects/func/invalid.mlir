// RUN: strata-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// The function syntax and the function interface checks of func.func and ml_program.func.

// What the function syntax says itself (name, visibility, signature) may not be said
// again in `attributes {...}`, where it would silently win over what is written.
// expected-error @+1 {{custom op 'func.func' 'sym_visibility' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
func.func @restated_visibility(%a: i32) attributes {sym_visibility = "nested"} {
  return
}

// -----

// expected-error @+1 {{'function_type' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
func.func private @restated_signature(f32) attributes {function_type = (i32) -> ()}

// -----

// expected-error @+1 {{custom op 'ml_program.func' 'sym_name' is an inferred attribute}}
ml_program.func @restated_name() attributes {sym_name = "other"} {
  ml_program.return
}

// -----

// One dictionary of attributes per argument and per result, checked even without a body.
// expected-error @+1 {{'func.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 1, but expected 2}}
func.func private @arg_dicts(i32, f32) attributes {arg_attrs = [{}]}

// -----

// expected-error @+1 {{'func.func' op expects result attribute array to have the same number of elements as the number of function results, got 2, but expected 1}}
func.func @res_dicts(%a: i32) -> i32 attributes {res_attrs = [{}, {}]} {
  return %a : i32
}

// -----

// expected-error @+1 {{'func.func' op attribute 'arg_attrs' failed to satisfy constraint: Array of dictionary attributes}}
func.func private @arg_dict_not_a_dict(i32) attributes {arg_attrs = [7]}

// -----

// expected-error @+1 {{'func.func' op visibility expected to be one of ["public", "private", "nested"], but got "internal"}}
"func.func"() <{function_type = () -> (), sym_name = "f", sym_visibility = "internal"}> ({
}) : () -> ()

// -----

// Argument and result attributes written in the signature are added after the
// `attributes` dictionary: it may not hold them as well (upstream's duplicate check).
// expected-error @+1 {{custom op 'func.func' attribute 'arg_attrs' occurs more than once in the attribute list}}
func.func @dup_arg_attrs(%a: i32 {u.x}) attributes {arg_attrs = [{}]} {
  return
}

// -----

// expected-error @+1 {{custom op 'func.func' attribute 'res_attrs' occurs more than once in the attribute list}}
func.func private @dup_res_attrs() -> (i32 {u.r}) attributes {res_attrs = [{}]}
