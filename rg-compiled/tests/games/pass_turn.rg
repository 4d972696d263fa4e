// A player places a stone on an empty square, or passes when there is
// none (`! c0`, a copy of the placing walk up to its test); the keeper
// then asks whether the player can place or pass (`? t0`, always so).
type Player = { one };
type Score = { 0 };
type Piece = { e, x, null };
type Square = { a, b, c };
type SquareOrNull = { null, a, b, c };
var board: SquareOrNull -> Piece = { :e, null: null };
var sq: SquareOrNull = a;
begin, p0: player = one;
p0, n1: sq = Square(*);
n1, n2: board[sq] == e;
n2, n3: $$ sq;
n3, k0: player = keeper;
p0, n4: ! c0 -> c2;
n4, n5: $ pass;
n5, end: player = keeper;
k0, k1: board[sq] = x;
k1, k2: ? t0 -> t2;
k2, p0: player = one;
k1, k3: ! t0 -> t2;
k3, end: player = keeper;
c0, c1: sq = Square(*);
c1, c2: board[sq] == e;
t0, t1: sq = Square(*);
t1, t2: board[sq] == e;
t0, t2: ! c0 -> c2;
