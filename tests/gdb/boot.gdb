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
# At -Og the stop is on the opening brace: two lines down is strlcpy.
next
next
step
bt 1
delete
continue
