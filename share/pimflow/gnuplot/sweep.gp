# pf-sweep plot: pimflow's speedup over GPU only against the number of PIM
# channels, with the error band's p05-p95 as error bars (pimflow -U); one row of panels per GPU config, one panel per max n_gwrite,
# one line per model, the same logarithmic y range in every panel, one
# legend at the right.  Variables (gnuplot -e): base (base.I.gG.dat and
# base.range.gp from sweep2dat.awk), gws (the n_gwrite values, space
# separated), out, term (its size grows with the GPU count: pf-sweep), tm
# and bm (top and bottom of the panels), vs (space between rows), as
# screen fractions.
set terminal @term
set output out
load base.".range.gp"
n = words(gws)
r = words(gpus)
set multiplot layout r, n title "pimflow speedup over GPU only" noenhanced \
    margins 0.06, 0.83, bm, tm spacing 0.05, vs
set grid lc rgb "#dddddd"
set ylabel "speedup (x, log scale)"
set logscale y
set yrange [ymin / 1.1 : ymax * 1.1]
# Labelled tics dense enough to read a narrow range, sparse enough not to
# collide on a wide one.
if (ymax / ymin < 8) {
	set ytics ("0.5" 0.5, "0.6" 0.6, "0.7" 0.7, "0.8" 0.8, "0.9" 0.9, "1" 1, \
	    "1.1" 1.1, "1.25" 1.25, "1.5" 1.5, "2" 2, "2.5" 2.5, "3" 3, "4" 4, "5" 5, \
	    "6" 6, "8" 8, "10" 10)
} else {
	set ytics ("0.1" 0.1, "0.2" 0.2, "0.5" 0.5, "1" 1, "2" 2, "5" 5, "10" 10, \
	    "20" 20, "50" 50, "100" 100, "200" 200, "500" 500, "1000" 1000)
}
set xtics nomirror
set xrange [xmin - 2 : xmax + 2]
do for [j = 1:r] {
	do for [i = 1:n] {
		g = word(gws, i)
		if (i == n && j == 1) {
			set key at screen 0.99, screen tm right top vertical \
			    noenhanced font ",9"
		} else { unset key }
		if (i == 1) { set ylabel "speedup (x, log scale)" } else { unset ylabel }
		if (j == r) { set xlabel "PIM channels (of the total)" } else { unset xlabel }
		set title sprintf("%s, max n_gwrite = %s", word(gpus, j), g) noenhanced
		f = sprintf("%s.%d.g%s.dat", base, j, g)
		plot for [k = 0:*] f index k using 1:2:3:4 with yerrorlines lw 2 \
		    pt (k % 6) + 5 ps 0.9 lc (k + 1) title columnheader(1)
	}
}
unset multiplot
