//
%0=arith.constant-3:i0