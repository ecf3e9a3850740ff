# pf-sweep plot: pimflow's speedup over GPU only against the number of PIM
# channels, one panel per max n_gwrite, one line per model (and GPU).
# Variables (gnuplot -e): base (data files base.gG.dat from sweep2dat.awk),
# gws (the n_gwrite values, space separated), out, term.
set terminal @term
set output out
n = words(gws)
set multiplot layout 1, n title "pimflow speedup over GPU only" noenhanced
set grid lc rgb "#dddddd"
set xlabel "PIM channels (of the total)"
set ylabel "speedup (x)"
set yrange [*:*]
set key top left noenhanced font ",8"
set xtics nomirror
set offsets 1, 1, graph 0.05, graph 0.05
do for [i = 1:n] {
	g = word(gws, i)
	set title sprintf("max n\\_gwrite = %s", g)
	f = sprintf("%s.g%s.dat", base, g)
	plot for [k = 0:*] f index k using 1:2 with linespoints lw 2 pt 7 ps 0.8 \
	    title columnheader(1)
}
unset multiplot
