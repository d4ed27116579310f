# SPDX-License-Identifier: GPL-2.0-or-later
#
# enabled_functions of a kernel tracing every function, made from real
# lines: awk -v n=N -f gen_enabled_functions.awk enabled_functions-guest.txt
#
# The function tracer's own line (its trampoline, no other user) for 99
# records in 100, the input's records in turn for the rest (a
# "\tdirect-->" line stays with its record); every name made unique with
# "_I"; the last twentieth in the modules benchmod00..benchmod39, as the
# kernel lists module functions after the kernel's own.
/^\tdirect-->/ { rec[nr - 1] = rec[nr - 1] "\n" $0; next }
{ rec[nr++] = $0 }
END {
	for (i = 0; i < nr; i++)
		if (rec[i] ~ /\(function_trace_call\+/ && rec[i] !~ /^[^ ]* \[/) {
			ft = rec[i]
			break
		}
	nmod = int(n / 20)
	for (i = 0; i < n; i++) {
		r = i % 100 == 99 ? rec[int(i / 100) % nr] : ft
		sp = index(r, " ")
		name = sp ? substr(r, 1, sp - 1) : r
		rest = sp ? substr(r, sp) : ""
		if (rest ~ /^ \[/)
			rest = substr(rest, index(rest, "]") + 1)
		mod = ""
		if (i >= n - nmod)
			mod = sprintf(" [benchmod%02d]", int((i - (n - nmod)) * 40 / nmod))
		printf "%s_%d%s%s\n", name, i, mod, rest
	}
}
