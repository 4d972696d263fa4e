// A one-player game whose moves demote a king (k) to a man (m) or remove
// a man, ending when a check finds no piece left. Its scans for a square
// holding either piece test both before writing the square (gen.rs): the
// move search's for all squares at once, the check's (most squares hold
// a piece) square by square.
type Player = { one };
type Score = { 0 };
type Piece = { e, k, m };
type Sq = { a, b, c, d };
var board: Sq -> Piece = { :e, a: k, b: m, c: m };
var sq: Sq = a;
begin, p: player = one;
p, n1: sq = Sq(*);
n1, n2: board[sq] == k;
n1, n3: board[sq] == m;
n2, n4: board[sq] = m;
n3, n4: board[sq] = e;
n4, n5: $$ sq;
n5, n6: ? r0 -> r2;
n6, p: player = one;
n5, n7: ! r0 -> r2;
n7, end: player = keeper;
r0, r1: sq = Sq(*);
r1, r2: board[sq] == k;
r1, r2: board[sq] == m;
