/* user/bin/true.c — true: do nothing, successfully.
 * Also the smallest possible exec test. */
int main(void)
{
	return 0;
}
