# Each series of the soak's samples (ops/proof/run.sh soak) in a panel of its own, over the minutes of the run.
# Called with: data (samples.tsv, a header row then one row per sample), out (the PNG), columns (how many series).
set terminal pngcairo size 1800,1500 font "Noto Sans,8"
set output out
set datafile separator "\t"
set key off
set xlabel "minutes"
set format y "%g"
rows = ceil(columns / 6.0)
set multiplot layout rows, 6 title "Soak: each series over the run"
names = system("head -n 1 '" . data . "' | tr '\\t' ' '")
do for [i = 2:columns + 1] {
  set title word(names, i) noenhanced
  plot data using ($1 / 60):i every ::1 with lines lw 1.5 lc rgb "#1f77b4"
}
unset multiplot
