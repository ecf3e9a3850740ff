# pf-sweep -B/-L plot: tokens/s of a decode step against the context
# length, one panel per policy, one line per batch, log-log axes.
# Variables (gnuplot -e): base (base.dP.B.dat and base.dvars.gp from
# decode2dat.awk), out, term.
set terminal @term
set output out
load base.".dvars.gp"
n = words(pols)
cols = n < 4 ? n : 4
rows = (n + cols - 1) / cols
set multiplot layout rows, cols title ttl noenhanced
set grid lc rgb "#dddddd"
set logscale xy 2
set format y "%g"
set xlabel "context (tokens)"
set ylabel "tokens/s"
set key top right noenhanced font ",8"
do for [i = 1:n] {
	set title word(pols, i) noenhanced
	plot for [j = 1:words(bats)] base.".d".i.".".word(bats, j).".dat" \
	    using 1:2 with linespoints title "batch ".word(bats, j)
}
unset multiplot
