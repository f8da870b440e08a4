# tests/gdb/boot.gdb — the step-debugging path that tests/qemu/gdb.sh guards.
# Run by gdb -batch; tools/gdbinit sets architecture and connects.
hbreak kernel_main
continue
bt
print/x magic
delete
hbreak parse_kernel_params
continue
bt
print boot_command_line
next
step
bt 1
delete
continue
