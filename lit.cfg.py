# lit configuration shared by every test suite in the tree: compiler pass
# tests (beside each pass, in test/ folders) and end-to-end tests (tests/e2e).
import os
import lit.formats

config.name = "Ferry"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]
config.test_source_root = config.ferry_test_source_root
config.test_exec_root = config.ferry_test_exec_root

config.environment["PATH"] = os.pathsep.join(
    config.ferry_tools_dir.split(":") + [config.llvm_tools_dir, config.environment.get("PATH", "")]
)
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# ferry-compile of this build allocates with jemalloc (compiler/tools).
if getattr(config, "ferry_compile_jemalloc", False):
    config.available_features.add("ferry-compile-jemalloc")
# A build whose runtime (ferry-run) is sanitized: its runtime owns malloc.
if getattr(config, "ferry_sanitizer", ""):
    config.available_features.add("sanitizer")
config.substitutions.append(("%samples", os.path.join(config.ferry_source_root, "samples")))
# Native plugin modules of this build (samples/custom_module, test plugins).
config.substitutions.append(("%plugins", config.ferry_plugins_dir))
# The same plugins built like ferry-compile, for ferry-compile --module (in a
# sanitizer build, ferry-run is sanitized and ferry-compile is not).
config.substitutions.append(("%compile_plugins", config.ferry_compile_plugins_dir))
# Debian's interpreter: the first python3 on PATH may lack NumPy.
config.substitutions.append(("%python", "/usr/bin/python3"))
