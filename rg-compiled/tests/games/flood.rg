// A one-player game on a ring of seven squares: a stone (x) may be placed
// on an empty square only where a check finds the y, flooding from it
// through the x stones both ways. The flood's node after each step tests
// the square's piece only, so a square that is neither x nor y is not
// marked visited (gen.rs, `passes`).
type Player = { one };
type Score = { 0 };
type Piece = { e, x, y };
type Sq = { s1, s2, s3, s4, s5, s6, s7 };
const next: Sq -> Sq = { :s1, s1: s2, s2: s3, s3: s4, s4: s5, s5: s6, s6: s7 };
const prev: Sq -> Sq = { :s7, s2: s1, s3: s2, s4: s3, s5: s4, s6: s5, s7: s6 };
var board: Sq -> Piece = { :e, s3: y };
var sq: Sq = s1;
var pos: Sq = s1;
begin, p: player = one;
p, n1: sq = Sq(*);
n1, n2: board[sq] == e;
n2, n3: pos = sq;
n3, n4: ? c0 -> cf;
n4, n5: board[sq] = x;
n5, n6: $$ sq;
n6, p: player = one;
p, f: $ done;
f, end: player = keeper;
c0, c1: pos = next[pos];
c0, c1: pos = prev[pos];
c1, c0: board[pos] == x;
c1, cf: board[pos] == y;
