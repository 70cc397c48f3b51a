#ifndef LIFESIGNAL_CPHONENUMBER_H
#define LIFESIGNAL_CPHONENUMBER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What `ls_phone_normalize` found.
typedef enum {
    LS_PHONE_OK = 0,
    /// Not a phone number at all (letters, too short, no country known).
    LS_PHONE_NOT_A_NUMBER = 1,
    /// Read as a number, but shorter than any number of its country.
    LS_PHONE_TOO_SHORT = 2,
    /// Read as a number, but longer than any number of its country.
    LS_PHONE_TOO_LONG = 3,
    /// Read as a number, but of a length no number of its country has, or no such country code.
    LS_PHONE_INVALID = 4,
    /// The output buffer is too small.
    LS_PHONE_BUFFER = 5,
} ls_phone_result;

/// Reads `typed` the way people write numbers in `region` (ISO 3166 code such as "GB";
/// a number starting with + needs none) and writes it in E.164 (+447700900123) to `out`.
/// The check is on length, not on which ranges are allocated: the metadata ages, and the code
/// sent to the number proves it.
ls_phone_result ls_phone_normalize(const char *typed, const char *region, char *out, size_t out_size);

/// The country calling code of `region` ("GB" → 44), or 0 for an unknown region.
int ls_phone_calling_code(const char *region);

/// Writes the regions libphonenumber knows, as two-letter codes separated by commas, sorted.
/// Returns the length needed (without the terminator); writes nothing when it does not fit.
size_t ls_phone_regions(char *out, size_t out_size);

/// Writes an example mobile number of `region` in its national format ("07400 123456"), or
/// returns 0 when there is none.
int ls_phone_example(const char *region, char *out, size_t out_size);

/// What kind of line an E.164 number is, as far as libphonenumber's metadata knows.
typedef enum {
    /// Unknown: not valid, or a range the metadata does not place.
    LS_PHONE_TYPE_UNKNOWN = 0,
    LS_PHONE_TYPE_MOBILE = 1,
    /// A landline: it cannot receive texts.
    LS_PHONE_TYPE_FIXED_LINE = 2,
    /// A number plan where landlines and mobiles share ranges (the US, Canada…).
    LS_PHONE_TYPE_FIXED_LINE_OR_MOBILE = 3,
    /// Anything else (VoIP, pager, toll-free, shared cost, personal, UAN, voicemail).
    LS_PHONE_TYPE_OTHER = 4,
} ls_phone_type;

/// The line type of `e164` (+493012345678 → fixed line).
ls_phone_type ls_phone_number_type(const char *e164);

#ifdef __cplusplus
}
#endif

#endif
