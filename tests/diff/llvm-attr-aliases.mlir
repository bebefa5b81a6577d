// LLVM metadata attributes print through aliases named after them, in
// mlir-opt's order (by nesting depth, then name), with distinct ids
// renumbered as printed; alias references inside them read as the
// attributes they name. Includes llvm.intr.experimental.noalias.scope.decl.
#outer = #llvm.alias_scope_domain<id = distinct[7]<>, description = "outer">
#inner = #llvm.alias_scope_domain<id = distinct[3]<>>
#a = #llvm.alias_scope<id = distinct[5]<>, domain = #outer, description = "a">
#b = #llvm.alias_scope<id = distinct[11]<>, domain = #inner>
#c = #llvm.alias_scope<id = distinct[2]<>, domain = #outer>
#root = #llvm.tbaa_root<id = "root">
#char = #llvm.tbaa_type_desc<id = "char", members = {<#root, 0>}>
#int = #llvm.tbaa_type_desc<id = "int", members = {<#char, 0>}>
#tag = #llvm.tbaa_tag<base_type = #int, access_type = #int, offset = 0>
#group = #llvm.access_group<id = distinct[1]<>>
#unroll = #llvm.loop_unroll<disable = true>
#loop = #llvm.loop_annotation<unroll = #unroll, parallelAccesses = #group>
#scale = affine_map<(d0) -> (d0 * 4)>
llvm.func @scopes(%p: !llvm.ptr, %q: !llvm.ptr) {
  llvm.intr.experimental.noalias.scope.decl #b
  %0 = llvm.load %p {alias_scopes = [#a, #c], noalias_scopes = [#b], tbaa = [#tag]} : !llvm.ptr -> i32
  llvm.store %0, %q {access_groups = [#group], noalias_scopes = [#a], note = #scale} : i32, !llvm.ptr
  llvm.br ^bb1 {loop_annotation = #loop}
^bb1:
  llvm.intr.experimental.noalias.scope.decl #llvm.alias_scope<id = distinct[20]<>, domain = #inner, description = "inline">
  llvm.return
}
