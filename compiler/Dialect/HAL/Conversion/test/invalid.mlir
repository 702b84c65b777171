// RUN: ferry-opt %s --split-input-file --convert-stream-to-hal --verify-diagnostics

// Timepoints and resources do not cross function boundaries yet.
// expected-error @+1 {{function 'boundary' passes stream resources or timepoints across its boundary}}
func.func @boundary(%t: !stream.timepoint) {
  stream.timepoint.await %t
  return
}
