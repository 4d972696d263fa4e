// A keeper that may go round a tagged loop forever (found in review):
// every lap is a fresh tag prefix instance, so the loop's visited checks
// never fail and are dropped; the walk must still stop after the
// engine's 100,000 tags, not recurse forever.
type Player = { one };
type Score = { 0 };
type Turn = { t0, t1, t2 };
const tnext: Turn -> Turn = { :t0, t0: t1, t1: t2 };
var turn: Turn = t0;
begin, p: player = one;
p, p1: $ a;
p1, k0: player = keeper;
k0, k1: $ t;
k1, k0: turn != t2;
k0, k2: $ done;
k2, k3: turn = tnext[turn];
k3, p: player = one;
k3, k4: turn == t2;
k4, end: player = keeper;
