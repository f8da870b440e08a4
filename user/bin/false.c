/* user/bin/false.c — false: do nothing, unsuccessfully.
 * Exit status 1, for testing $? and exit-status paths. */
int main(void)
{
	return 1;
}
