/* dyn_hello.c -- a dynamically linked program (irix-emu's own, for tests
 * that run without SGI's files). PT_INTERP names /lib/ld.so (ld.c) and
 * DT_NEEDED libgreet.so; every call into the library goes through a global
 * GOT entry the interpreter fills from the library's symbol table.
 *
 * Prints the library's message, a sum, its argument count and last
 * argument, and how many calls the library counted (its data, reached
 * through the GOT), then exits with status 42.
 */

extern int greet_calls;
const char *greet_message(void);
int greet_add(int a, int b);
void greet_write(const char *s);
void greet_exit(int status) __attribute__((noreturn));

static char line[64];

/* Formats "<text><n>\n" into line. */
static const char *say_number(const char *text, int n)
{
	char digits[12];
	int i = 0, k = 0;
	while (text[i]) {
		line[i] = text[i];
		i++;
	}
	if (n == 0)
		digits[k++] = '0';
	while (n > 0) {
		digits[k++] = (char)('0' + n % 10);
		n /= 10;
	}
	while (k > 0)
		line[i++] = digits[--k];
	line[i++] = '\n';
	line[i] = 0;
	return line;
}

int main(int argc, char **argv)
{
	greet_write(greet_message());
	greet_write(say_number("2 + 40 = ", greet_add(2, 40)));
	greet_write(say_number("argc = ", argc));
	greet_write(argv[argc - 1]);
	greet_write("\n");
	greet_write(say_number("calls = ", greet_calls));
	greet_exit(42);
}
