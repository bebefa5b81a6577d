//
tt.func@c(%m:!c<#ttg.shared_memory>){tt.return}