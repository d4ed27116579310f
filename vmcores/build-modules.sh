# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by make-vmcore (bash, set -euo pipefail): builds every out-of-tree
# module in vmcores/modules/<name>/ against Debian's headers of the guest
# kernel, so that a scenario can insmod it. Uses make-vmcore's variables
# (here, cache, pkg, version, release, scenario) and its log/die/download.
# shellcheck disable=SC2154

# Debian's headers are three packages: the flavour's (config, Module.symvers,
# generated headers), the common source headers and the kbuild tools. They are
# unpacked into the cache, where two absolute paths that assume /usr/src need
# to be pointed at the copy.
prepare_headers() {
	hdir=$cache/headers/${release}_$version
	[ -f "$hdir/.complete" ] && return 0
	local hpkg=linux-headers-$release deps d
	deps=$(apt_cache depends "$hpkg=$version" 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-(headers|kbuild)-/ { print $2 }')
	[ -n "$deps" ] || die "apt-cache cannot resolve $hpkg $version"
	rm -rf "$hdir.tmp"
	mkdir -p "$hdir.tmp"
	for d in "$hpkg" $deps; do
		# The common headers carry the same version; linux-kbuild only
		# promises >=, so take its candidate when the exact one is gone
		# (the security archive replaces it: 6.1.192-3 beside -2's
		# image).  apt-cache show exits 0 for a version it does not
		# know, printing nothing: the record is what tells.
		local v=$version
		if ! apt_cache show "$d=$v" 2>/dev/null | grep -q '^Package:'; then
			v=$(apt_cache policy "$d" | awk '$1 == "Candidate:" { print $2 }')
		fi
		case $guest_arch:$d in
		arm64:linux-kbuild-*) host_kbuild "$d" "$v" "$hdir.tmp" ;;
		*)
			download "$d" "$v"
			dpkg-deb -x "$(deb_file "$d" "$v")" "$hdir.tmp" ;;
		esac
	done
	# 7.x's flavour Makefile also names its own folder in KBUILD_OUTPUT.
	sed -i -e "s|^include /usr/src/|include $hdir/usr/src/|" \
		-e "s|^KBUILD_OUTPUT=/usr/src/|KBUILD_OUTPUT=$hdir/usr/src/|" \
		"$hdir.tmp/usr/src/linux-headers-$release/Makefile"
	host_tools_libc "$hdir.tmp"
	touch "$hdir.tmp/.complete"
	rm -rf "$hdir"
	mv "$hdir.tmp" "$hdir"
	# The include line names the final folder, which exists only now.
	[ -f "$hdir/usr/src/linux-headers-$release/Makefile" ] ||
		die "no linux-headers-$release in the headers package"
}

# An arm64 guest's headers run kbuild's programs (fixdep, modpost) here:
# linux-kbuild of the host's architecture and the same version, from the
# system's own list, in place of arm64's.  The headers' Makefile says
# ARCH=arm64; make is told CROSS_COMPILE.
host_kbuild() { # package version dest
	local opts=("${apt_suite_opts[@]}") arch=$deb_arch
	apt_suite_opts=()
	deb_arch=$(dpkg --print-architecture)
	download "$1" "$2"
	dpkg-deb -x "$(deb_file "$1" "$2")" "$3"
	apt_suite_opts=("${opts[@]}")
	deb_arch=$arch
}

# The headers' host programs (objtool, modpost) of a newer suite may need a
# newer glibc than the system's (7.2's want 2.38, bookworm has 2.36): those
# run through that suite's own libc6, unpacked next to them, by a wrapper.
host_tools_libc() { # headers-root
	local f tools=() libdir out
	while IFS= read -r f; do
		out=$("$f" --help </dev/null 2>&1 || true)
		case $out in *"GLIBC_"*"not found"*) tools+=("$f") ;; esac
	done < <(find "$1" -type f \( -name 'objtool.real-*' -o -name 'modpost.real-*' \) -perm -u+x)
	[ ${#tools[@]} -gt 0 ] || return 0
	local v
	v=$(apt_cache policy libc6 | awk '$1 == "Candidate:" { print $2 }')
	[ -n "$v" ] && [ "$v" != "(none)" ] || die "${tools[0]} needs a newer glibc and ${suite:-the system} has no libc6"
	download libc6 "$v"
	dpkg-deb -x "$(deb_file libc6 "$v")" "$1/hostlibc"
	libdir=$1/hostlibc/usr/lib/x86_64-linux-gnu
	[ -x "$libdir/ld-linux-x86-64.so.2" ] || die "no ld-linux-x86-64.so.2 in libc6 $v"
	for f in "${tools[@]}"; do
		log "$(basename "$f") of $release needs a newer glibc: run with libc6 $v"
		mv "$f" "$f.bin"
		printf '#!/bin/sh\nexec "%s" --library-path "%s" "%s" "$@"\n' \
			"${libdir/"$1"/$hdir}/ld-linux-x86-64.so.2" "${libdir/"$1"/$hdir}" \
			"${f/"$1"/$hdir}.bin" >"$f"
		chmod +x "$f"
	done
}

# gcc 12 has no -fmin-function-alignment (gcc 14+), which a kernel built
# with a newer gcc asks for; -falign-functions is what older kernels use.
kernel_cc_overrides() {
	echo 'int x;' | gcc -fmin-function-alignment=16 -x c -c -o /dev/null - 2>/dev/null ||
		echo CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT=
}

# The compiler Debian's headers name (gcc-10 for 5.10, gcc-16 for 7.2) when it
# is installed, else the system's gcc: a test module does not need the very
# compiler of the kernel, and the headers then warn about the difference.
kernel_cc() {
	local cc
	cc=$(sed -n 's/^CC = .*[) ]\(gcc[-.0-9]*\)$/\1/p' \
		"$hdir/usr/src/linux-headers-$release/.kernelvariables" 2>/dev/null | head -n 1)
	[ -z "$cc" ] || command -v "$cc" >/dev/null && return 0
	log "warning: $release was built with $cc, which is not installed; using gcc"
	echo gcc
}

# Fills project_modules with the paths of the built .ko files. A build is
# reused while the module's source files are unchanged.
build_project_modules() {
	local src name sum out required cc
	required=$(sed -n 's/^#@ *require-modules: *//p' "$scenario" | tail -n 1)
	for src in "$here"/modules/*/; do
		src=${src%/}
		name=$(basename "$src")
		[ -f "$src/Kbuild" ] || [ -f "$src/Makefile" ] || continue
		# A module with a file scenario-only (ksdie kills the kernel)
		# goes only into the guests of the scenarios that require it.
		if [ -f "$src/scenario-only" ]; then
			case " $required " in *" $name "*) ;; *) continue ;; esac
		fi
		out=$cache/modules/${release}_$version/$name
		sum=$(cd "$src" && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum | cut -c1-64)
		if [ ! -f "$out/.sum" ] || [ "$(cat "$out/.sum")" != "$sum" ]; then
			prepare_headers
			log "building module $name against linux-headers-$release"
			rm -rf "$out"
			mkdir -p "$out/build"
			# Build in a copy: the source folder stays free of build output.
			cp -a "$src/." "$out/build/"
			# No module BTF: 6.12's needs pahole against a vmlinux the
			# headers lack, and the kernel drops it after load anyway.
			cc=$(kernel_cc)
			# shellcheck disable=SC2046 # no override or one word
			if make -s -C "$hdir/usr/src/linux-headers-$release" M="$out/build" \
				${cc:+CC="$cc"} $([ -z "$cc" ] || kernel_cc_overrides) \
				${cross_compile:+CROSS_COMPILE="$cross_compile"} \
				CONFIG_DEBUG_INFO_BTF_MODULES= modules >"$out/build.log" 2>&1; then
				find "$out/build" -name '*.ko' -exec cp {} "$out/" \;
				echo "$sum" >"$out/.sum"
			else
				case " $required " in
				*" $name "*) die "module $name does not build: see $out/build.log" ;;
				esac
				log "warning: module $name does not build (see $out/build.log); left out"
				continue
			fi
		fi
		for ko in "$out"/*.ko; do
			[ -f "$ko" ] && project_modules+=("$ko")
		done
	done
	for name in $required; do
		compgen -G "$cache/modules/${release}_$version/$name/*.ko" >/dev/null ||
			die "the scenario requires module $name, which vmcores/modules/ does not provide"
	done
	return 0
}
