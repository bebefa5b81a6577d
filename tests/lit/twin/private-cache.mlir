// The build cache holds libraries that are loaded and run, so it must be the
// user's alone. A new cache folder is made 0700 whatever the umask:
// RUN: rm -rf %t.pc && mkdir -p %t.pc && (umask 000 && HIVM_TWIN_CACHE=%t.pc/new hivm-run %s --impl %S/Inputs/bump_a.cpp --arg zeros:4xf32 --print 0) && stat -c %a %t.pc/new | FileCheck %s --check-prefix=MODE
// MODE: 700
// A folder others may write is refused, as is one that is a symbolic link
// (even to a private folder of ours):
// RUN: mkdir -m 777 %t.pc/open && not env HIVM_TWIN_CACHE=%t.pc/open hivm-run %s --impl %S/Inputs/bump_a.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=OPEN
// OPEN: error: refusing to use {{.*}}/open as the twin's build cache: it is writable by group and others (mode 0777)
// RUN: mkdir -m 720 %t.pc/group && not env HIVM_TWIN_CACHE=%t.pc/group hivm-run %s --impl %S/Inputs/bump_a.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: error: refusing to use {{.*}}/group as the twin's build cache: it is writable by its group (mode 0720)
// RUN: ln -s %t.pc/new %t.pc/link && not env HIVM_TWIN_CACHE=%t.pc/link hivm-run %s --impl %S/Inputs/bump_a.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=LINK
// LINK: error: refusing to use {{.*}}/link as the twin's build cache: it is a symbolic link
// A folder that anyone may fill is no place for one either:
// RUN: mkdir -m 777 %t.pc/shared && not env HIVM_TWIN_CACHE=%t.pc/shared/mine hivm-run %s --impl %S/Inputs/bump_a.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=UNDER
// UNDER: error: refusing to keep the twin's build cache under {{.*}}/shared: anyone may replace what is in it (mode 0777)
// Without HOME or XDG_CACHE_HOME the cache is a folder of the user's own in
// the temp folder, checked the same way: planted there first by someone
// else (here: open to all), it is refused.
// RUN: mkdir -m 1777 %t.pc/tmp && env -u HOME -u XDG_CACHE_HOME -u HIVM_TWIN_CACHE TMPDIR=%t.pc/tmp hivm-run %s --impl %S/Inputs/bump_a.cpp --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=AFTER
// RUN: stat -c %a %t.pc/tmp/hivm-rs-$(id -u) %t.pc/tmp/hivm-rs-$(id -u)/twin | FileCheck %s --check-prefix=TMP
// TMP: 700
// TMP-NEXT: 700
// RUN: mkdir -m 1777 %t.pc/tmp2 && mkdir -m 777 %t.pc/tmp2/hivm-rs-$(id -u) && not env -u HOME -u XDG_CACHE_HOME -u HIVM_TWIN_CACHE TMPDIR=%t.pc/tmp2 hivm-run %s --impl %S/Inputs/bump_a.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=PLANTED
// PLANTED: error: refusing to use {{.*}}/tmp2/hivm-rs-{{[0-9]+}} as the twin's build cache: it is writable by group and others
// The clean-up of abandoned build folders removes folders, never what a
// symbolic link named like one points to:
// RUN: mkdir -p %t.pc/victim && touch %t.pc/victim/keep && ln -s %t.pc/victim %t.pc/new/0.build.1.2 && touch -h -d '2 hours ago' %t.pc/new/0.build.1.2
// RUN: cp %S/Inputs/memref.h %t.pc/ && echo '// changed' | cat %S/Inputs/bump_a.cpp - > %t.pc/bump.cpp && HIVM_TWIN_CACHE=%t.pc/new hivm-run %s --impl %t.pc/bump.cpp --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=AFTER
// RUN: ls %t.pc/victim | FileCheck %s --check-prefix=KEPT
// AFTER: [1, 1, 1, 1]
// KEPT: keep
func.func @k(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "bump"} "bump" outs(%m : memref<4xf32>)
  return
}
