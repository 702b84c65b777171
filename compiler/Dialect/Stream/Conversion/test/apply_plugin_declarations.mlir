// RUN: ferry-opt %s --split-input-file --verify-diagnostics --apply-plugin-declarations=plugins=%compile_plugins/custom_module.so | FileCheck %s
// RUN: ferry-opt %s --split-input-file --verify-diagnostics --apply-plugin-declarations=plugins=%compile_plugins/test_plugin_late.so | FileCheck %s --check-prefix=LATE
// RUN: not ferry-opt %s --split-input-file --apply-plugin-declarations=plugins=%t.missing.so 2>&1 | FileCheck %s --check-prefix=MISSING

// custom_module's Double and Triple declare FERRY_PLUGIN_TIED_MAY_ALIAS and
// match these declarations: both get marked. test_plugin_late implements
// them with the same signature but does not declare it.
// CHECK-LABEL: func.func private @Double.function
// CHECK-SAME: ferry.abi.tied_may_alias
// CHECK-LABEL: func.func private @Triple.function
// CHECK-SAME: ferry.abi.tied_may_alias
// LATE-NOT: ferry.abi.tied_may_alias
func.func private @Double.function(tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences"}
func.func private @Triple.function(tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences"}

// -----

// A declaration none of the plugins implements: ferry-run could not bind
// the module with them. Every such declaration is reported.
// expected-error-re @+1 {{external function 'Other.function' is provided by none of the plugins given ('{{.+}}.so'); give every plugin the program calls with --module}}
func.func private @Other.function(tensor<?xi32>) -> tensor<?xi32>
// expected-error-re @+1 {{external function 'other' is provided by none of the plugins given ('{{.+}}.so'); an external function is named 'module.function', after the native module and function that provide it}}
func.func private @other(tensor<?xi32>) -> tensor<?xi32>
func.func private @Double.function(tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences"}

// -----

// A calling convention the plugin does not implement.
// expected-error-re @+1 {{'Double.function' is declared with no ABI model but plugin '{{.+}}.so' implements it with the coarse-fences ABI}}
func.func private @Double.function(tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>

// -----

// A signature the plugin does not implement: a scalar where it takes a
// buffer view.
// expected-error-re @+1 {{'Triple.function' imports (rirr) -> (r) but plugin '{{.+}}.so' defines (rrrr) -> (r) (i: integer, r: buffer view or fence)}}
func.func private @Triple.function(tensor<?xi32>, i32) -> (tensor<?xi32> {iree.abi.tied = 0 : index}) attributes {iree.abi.model = "coarse-fences"}

// MISSING: error: cannot load plugin '{{.+}}.missing.so'
