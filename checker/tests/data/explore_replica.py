# Run: pip install chess; python3 explore_replica.py  ->  [1, 21, 421, 6903] 7346
# Replica of the checker's iterative search (checker/src/explore.rs) with
# python-chess: per iteration d, an empty table keyed by the position's
# transposition key (en passant only where a capture is legal), salted at the
# last ply when the move there was quiet (no capture, no pawn move).
import chess
def run(depth_max):
    per = []
    for d in range(depth_max + 1):
        tt = {}
        count = 0
        b = chess.Board()
        def visit(ply, quiet):
            nonlocal count
            remaining = d - ply
            key = (b._transposition_key(), remaining == 0 and quiet)
            if tt.get(key, 0) > remaining:
                return
            tt[key] = remaining + 1
            count += 1
            if remaining == 0:
                return
            moves = list(b.legal_moves)
            for m in moves:
                q = not b.is_capture(m) and b.piece_type_at(m.from_square) != chess.PAWN
                b.push(m)
                visit(ply + 1, q)
                b.pop()
        visit(0, True)
        per.append(count)
    return per
p = run(3)
print(p, sum(p))
