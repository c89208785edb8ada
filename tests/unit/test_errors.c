// SPDX-License-Identifier: MIT
/* cuGetErrorName / cuGetErrorString over every CUresult of CUDA 13. */
#include "tap.h"
#include "vg.h"

static void names_are_the_enumerators(void)
{
	static const struct { CUresult code; const char *name; } known[] = {
		{ CUDA_SUCCESS, "CUDA_SUCCESS" },
		{ CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE" },
		{ CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED" },
		{ CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE" },
		{ CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT" },
		{ CUDA_ERROR_CONTEXT_IS_DESTROYED, "CUDA_ERROR_CONTEXT_IS_DESTROYED" },
		{ CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS" },
		{ CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN" },
	};
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		const char *s = NULL;

		CHECK_RES(CUDA_SUCCESS, cuGetErrorName(known[i].code, &s));
		if (!s || strcmp(s, known[i].name))
			TAP_FAIL("code %d is named %s", known[i].code, s ? s : "(null)");
	}
}

static void every_code_has_name_and_text(void)
{
	int code, n = 0;

	for (code = 0; code < 2000; code++) {
		const char *name = NULL, *text = NULL;
		CUresult rn = cuGetErrorName((CUresult)code, &name);
		CUresult rt = cuGetErrorString((CUresult)code, &text);

		CHECK(rn == rt);
		if (rn != CUDA_SUCCESS)
			continue;
		n++;
		CHECK(name && strncmp(name, "CUDA_", 5) == 0);
		CHECK(text && *text);
	}
	CHECK(n == 101);	/* CUDA 13.0 defines 101 codes */
}

static void unknown_codes(void)
{
	const char *s = (const char *)1;

	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetErrorName((CUresult)12345, &s));
	CHECK(s == NULL);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetErrorName(CUDA_SUCCESS, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetErrorString(CUDA_SUCCESS, NULL));
}

static const struct tap_test tests[] = {
	TAP_TEST(names_are_the_enumerators),
	TAP_TEST(every_code_has_name_and_text),
	TAP_TEST(unknown_codes),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
