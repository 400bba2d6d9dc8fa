// RUN: tx8-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// The module's hardware config: the fields that differ from hal/include/tx8/hw_config.def's defaults.
// CHECK: module attributes {tx8be.hw_config = {batch_align_bits = 4096 : i64, spm_bytes = 65536 : i64}}
module attributes {tx8be.hw_config = {spm_bytes = 65536 : i64, batch_align_bits = 4096 : i64}} {
}

// -----

// expected-error @+1 {{tx8be.hw_config: unknown hardware config field 'spm_size' (see hal/include/tx8/hw_config.def)}}
module attributes {tx8be.hw_config = {spm_size = 65536 : i64}} {
}

// -----

// expected-error @+1 {{tx8be.hw_config: 'spm_bytes' must be in [256, 268435456] (bytes)}}
module attributes {tx8be.hw_config = {spm_bytes = 0 : i64}} {
}

// -----

// expected-error @+1 {{tx8be.hw_config: 'tile_count' must be a non-negative integer that fits a uint32_t (tiles)}}
module attributes {tx8be.hw_config = {tile_count = 4294967296 : i64}} {
}

// -----

// expected-error @+1 {{tx8be.hw_config: 'clock_mhz' must be a non-negative integer that fits a uint32_t (MHz)}}
module attributes {tx8be.hw_config = {clock_mhz = "fast"}} {
}

// -----

// expected-error @+1 {{tx8be.hw_config must be a dictionary on the module}}
module attributes {tx8be.hw_config = 3 : i64} {
}

// -----

module {
  // expected-error @+1 {{tx8be.hw_config must be a dictionary on the module}}
  func.func @f() attributes {tx8be.hw_config = {spm_bytes = 1 : i64}} {
    return
  }
}
