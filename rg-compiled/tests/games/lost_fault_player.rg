// A review's trap: the check t0 ("place or pass") reads m[player], and
// the keeper, not a key of m, is on move when it is asked. Skipping it as
// always true would lose the engine's fault (`ever_held` must count
// `player` assignments).
type Player = { one };
type Score = { 0 };
type Piece = { e, x, null };
type Square = { a, b, c };
type SquareOrNull = { null, a, b, c };
var board: SquareOrNull -> Piece = { :e, null: null };
var m: Player -> Piece = { :e };
var sq: SquareOrNull = a;
var player: PlayerOrSystem = one;
begin, b1: ? t0 -> t2;
b1, p0: player = one;
p0, n1: sq = Square(*);
n1, n1b: board[sq] == e;
n1b, n2: m[player] == e;
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
c1, c1b: board[sq] == e;
c1b, c2: m[player] == e;
t0, t1: sq = Square(*);
t1, t1b: board[sq] == e;
t1b, t2: m[player] == e;
t0, t2: ! c0 -> c2;
