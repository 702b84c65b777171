// RUN: ferry-opt %s --split-input-file --verify-diagnostics --apply-plugin-declarations=plugins=%compile_plugins/custom_module.so,%compile_plugins/test_plugin_bad_results.so | FileCheck %s

// With several plugins, each external function needs to be in one of them:
// Double is in custom_module (which marks it), NullResult in
// test_plugin_bad_results.
// CHECK-LABEL: func.func private @Double.function
// CHECK-SAME: ferry.abi.tied_may_alias
// CHECK-LABEL: func.func private @NullResult.function
// CHECK-NOT: ferry.abi.tied_may_alias
func.func private @Double.function(tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences"}
func.func private @NullResult.function(tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences"}

// -----

// One in none of them is reported with every plugin searched.
// expected-error-re @+1 {{external function 'Other.function' is provided by none of the plugins given ('{{.+}}/custom_module.so', '{{.+}}/test_plugin_bad_results.so'); give every plugin the program calls with --module}}
func.func private @Other.function(tensor<?xi32>) -> tensor<?xi32>
