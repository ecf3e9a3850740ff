# pf-sweep plot: pimflow's speedup over GPU only against the number of PIM
# channels, one panel per max n_gwrite, one line per model (and GPU), the
# same logarithmic y range in every panel, one legend at the right.
# Variables (gnuplot -e): base (base.gG.dat and base.range.gp from
# sweep2dat.awk), gws (the n_gwrite values, space separated), out, term.
set terminal @term
set output out
load base.".range.gp"
n = words(gws)
set multiplot layout 1, n title "pimflow speedup over GPU only" noenhanced \
    margins 0.06, 0.83, 0.13, 0.86 spacing 0.05, 0.1
set grid lc rgb "#dddddd"
set xlabel "PIM channels (of the total)"
set ylabel "speedup (x, log scale)"
set logscale y
set yrange [ymin / 1.1 : ymax * 1.1]
set ytics ("0.5" 0.5, "0.6" 0.6, "0.7" 0.7, "0.8" 0.8, "0.9" 0.9, "1" 1, "1.1" 1.1, \
    "1.25" 1.25, "1.5" 1.5, "2" 2, "2.5" 2.5, "3" 3, "4" 4, "5" 5, "6" 6, "8" 8, \
    "10" 10, "15" 15, "20" 20, "30" 30, "50" 50, "100" 100)
set xtics nomirror
set offsets 1, 1, 0, 0
do for [i = 1:n] {
	g = word(gws, i)
	if (i < n) { unset key } else {
		set key at screen 0.99, screen 0.86 right top vertical noenhanced font ",9"
	}
	if (i > 1) { unset ylabel }
	set title sprintf("max n\\_gwrite = %s", g)
	f = sprintf("%s.g%s.dat", base, g)
	plot for [k = 0:*] f index k using 1:2 with linespoints lw 2 \
	    pt (k % 6) + 5 ps 0.9 lc (k + 1) title columnheader(1)
}
unset multiplot
