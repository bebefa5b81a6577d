//
tt.func@c(%m:!ttg.memdesc<8x
3x,,y>){tt.return}