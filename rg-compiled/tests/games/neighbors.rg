// A one-player game on a line of six squares: a move puts a y on an empty
// inner square (s2 to s5) with a y beside it, or a y on s6, or ends the
// game. The inner squares' scan drops those with no y beside them before
// asking the check (analysis::neighbor_filter): the y beside an inner
// square is one slot up or down the scan's mask, or, for s2 and s5, a
// square outside the scan (s1, s6) read on its own.
type Player = { one };
type Score = { 0 };
type Piece = { e, y };
type Sq = { null, s1, s2, s3, s4, s5, s6 };
type Inner = { s2, s3, s4, s5 };
const right: Sq -> Sq = { :null, s1: s2, s2: s3, s3: s4, s4: s5, s5: s6 };
const left: Sq -> Sq = { :null, s2: s1, s3: s2, s4: s3, s5: s4, s6: s5 };
var board: Sq -> Piece = { :e, s1: y };
var pos: Sq = s1;
begin, p: player = one;
p, p1: pos = Inner(*);
p1, p2: board[pos] == e;
p2, p3: ? r0 -> rt;
p3, p4: board[pos] = y;
p4, p5: $$ pos;
p5, p: player = one;
p, w1: board[s6] == e;
w1, w2: board[s6] = y;
w2, w3: $ s6;
w3, p: player = one;
p, z1: $ null;
z1, end: player = keeper;
r0, ra: pos = right[pos];
ra, rt: board[pos] == y;
r0, rl: pos = left[pos];
rl, rt: board[pos] == y;
