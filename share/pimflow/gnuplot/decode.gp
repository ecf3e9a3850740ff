# pf-sweep -B/-L plot: tokens/s (ycol 2, the default) or the speedup over
# the GPU alone (ycol 3) of a decode step against the context length, one
# panel per policy, one line per batch, log-log axes; the speedup panels
# draw 1 (where PIM stops paying) as a line.
# Variables (gnuplot -e): base (base.dP.B.dat and base.dvars.gp from
# decode2dat.awk), out, term, ycol.
if (!exists("ycol")) ycol = 2
set terminal @term
set output out
load base.".dvars.gp"
n = words(pols)
cols = n < 4 ? n : 4
rows = (n + cols - 1) / cols
set multiplot layout rows, cols title ttl.(ycol == 3 ? " speedup over the GPU alone" : " tokens/s")." against context" noenhanced
set grid lc rgb "#dddddd"
set logscale xy 2
set format y "%g"
set xlabel "context (tokens)"
set ylabel (ycol == 3 ? "speedup over the GPU alone" : "tokens/s")
set key top right noenhanced font ",8"
do for [i = 1:n] {
	set title word(pols, i) noenhanced
	if (ycol == 3) {
		set yrange [slo:shi]
		plot for [j = 1:words(bats)] base.".d".i.".".word(bats, j).".dat" \
		    using 1:3 with linespoints title "batch ".word(bats, j), \
		    1 with lines lc rgb "#888888" dt 2 notitle
	} else {
		plot for [j = 1:words(bats)] base.".d".i.".".word(bats, j).".dat" \
		    using 1:2 with linespoints title "batch ".word(bats, j)
	}
}
unset multiplot
