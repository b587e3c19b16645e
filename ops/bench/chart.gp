# Throughput and p99 latency of each figure, the service beside its raw limit, at 16 and 64
# connections. run.sh writes the data and calls:
#   gnuplot -e "data='FILE'; out='PNG'; heading='TITLE'" chart.gp
# Data columns: label, service@16, service@64, raw@16, raw@64 (requests/s), then the same four p99s (ms);
# "-" where a figure has no raw limit.
set terminal pngcairo size 1500,1100 font "sans,11"
set output out
set datafile missing "-"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border rgb "#333333"
set boxwidth 0.9
set grid ytics mytics lc rgb "#dddddd"
set logscale y
set key inside top left horizontal noenhanced
set xtics nomirror scale 0 font ",11" noenhanced
set title noenhanced
set lmargin 12
set tmargin 3

service16 = "#7fb3e0"; service64 = "#1f5f9e"; raw16 = "#d9d9d9"; raw64 = "#8c8c8c"
# a bar's centre in its cluster: four bars, then a gap of one
at(i) = $0 + (i - 2.5) / 5.0

# headroom above the tallest bar, for its value and the key
max(a, b) = a > b ? a : b
stats data using 2:3 nooutput
rate_top = max(STATS_max_x, STATS_max_y)
stats data using 4:5 nooutput
rate_top = 10 * max(rate_top, max(STATS_max_x, STATS_max_y))
stats data using 6:7 nooutput
p99_top = max(STATS_max_x, STATS_max_y)
stats data using 8:9 nooutput
p99_top = 10 * max(p99_top, max(STATS_max_x, STATS_max_y))
stats data using 0 nooutput
set xrange [-0.6:STATS_records - 0.4]

set multiplot layout 2,1 title heading font ",13" noenhanced

set title "Throughput (requests/s, log scale; the service's sustained rate counts the time its outbox took to drain)"
set ylabel "requests/s"
set yrange [10:rate_top]
plot data using 2:xtic(1) title "service, 16 connections" lc rgb service16, \
     ''   using 3 title "service, 64 connections" lc rgb service64, \
     ''   using 4 title "raw limit, 16" lc rgb raw16, \
     ''   using 5 title "raw limit, 64" lc rgb raw64, \
     ''   using (at(1)):2:(sprintf("%.0f", $2)) with labels rotate left offset 0,0.4 font ",8" notitle, \
     ''   using (at(2)):3:(sprintf("%.0f", $3)) with labels rotate left offset 0,0.4 font ",8" notitle, \
     ''   using (at(3)):4:(sprintf("%.0f", $4)) with labels rotate left offset 0,0.4 font ",8" notitle, \
     ''   using (at(4)):5:(sprintf("%.0f", $5)) with labels rotate left offset 0,0.4 font ",8" notitle

unset key
set title "p99 latency (ms, log scale). Raw limits: pgbench (POST /orders, pay, GET), redis-benchmark token claim (token, replay)"
set ylabel "ms"
set yrange [0.1:p99_top]
plot data using 6:xtic(1) title "service, 16 connections" lc rgb service16, \
     ''   using 7 title "service, 64 connections" lc rgb service64, \
     ''   using 8 title "raw limit, 16" lc rgb raw16, \
     ''   using 9 title "raw limit, 64" lc rgb raw64, \
     ''   using (at(1)):6:(sprintf("%.1f", $6)) with labels rotate left offset 0,0.4 font ",8" notitle, \
     ''   using (at(2)):7:(sprintf("%.1f", $7)) with labels rotate left offset 0,0.4 font ",8" notitle, \
     ''   using (at(3)):8:(sprintf("%.1f", $8)) with labels rotate left offset 0,0.4 font ",8" notitle, \
     ''   using (at(4)):9:(sprintf("%.1f", $9)) with labels rotate left offset 0,0.4 font ",8" notitle

unset multiplot
