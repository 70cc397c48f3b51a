// A C face for Google's libphonenumber (Debian's libphonenumber-dev), so Swift can use the
// maintained rules for how each country writes its numbers instead of hand-written ones.
#include "CPhoneNumber.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

namespace {
bool copy_out(const std::string &value, char *out, size_t out_size) {
    if (out == nullptr || value.size() + 1 > out_size) return false;
    std::memcpy(out, value.c_str(), value.size() + 1);
    return true;
}
}  // namespace

extern "C" ls_phone_result ls_phone_normalize(const char *typed, const char *region, char *out, size_t out_size) {
    if (typed == nullptr) return LS_PHONE_NOT_A_NUMBER;
    const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
    PhoneNumber number;
    std::string region_code = region != nullptr && region[0] != '\0' ? region : "ZZ";
    if (util.Parse(typed, region_code, &number) != PhoneNumberUtil::NO_PARSING_ERROR) {
        return LS_PHONE_NOT_A_NUMBER;
    }
    // A leading zero kept inside the number is how Italian landlines are written (+39 06…);
    // anywhere else it is a trunk 0 that could not be dropped because the rest is too short.
    if (number.italian_leading_zero() && !util.IsValidNumber(number)) return LS_PHONE_INVALID;
    switch (util.IsPossibleNumberWithReason(number)) {
    case PhoneNumberUtil::IS_POSSIBLE:
        break;
    case PhoneNumberUtil::TOO_SHORT:
    case PhoneNumberUtil::IS_POSSIBLE_LOCAL_ONLY:
        return LS_PHONE_TOO_SHORT;
    case PhoneNumberUtil::TOO_LONG:
        return LS_PHONE_TOO_LONG;
    default:
        return LS_PHONE_INVALID;
    }
    std::string e164;
    util.Format(number, PhoneNumberUtil::E164, &e164);
    return copy_out(e164, out, out_size) ? LS_PHONE_OK : LS_PHONE_BUFFER;
}

extern "C" int ls_phone_calling_code(const char *region) {
    if (region == nullptr) return 0;
    return PhoneNumberUtil::GetInstance()->GetCountryCodeForRegion(region);
}

extern "C" size_t ls_phone_regions(char *out, size_t out_size) {
    std::set<std::string> regions;
    PhoneNumberUtil::GetInstance()->GetSupportedRegions(&regions);
    std::string joined;
    for (const auto &region : regions) {
        if (!joined.empty()) joined += ",";
        joined += region;
    }
    copy_out(joined, out, out_size);
    return joined.size();
}

extern "C" int ls_phone_example(const char *region, char *out, size_t out_size) {
    if (region == nullptr) return 0;
    const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
    PhoneNumber number;
    if (!util.GetExampleNumberForType(region, PhoneNumberUtil::MOBILE, &number)) return 0;
    std::string national;
    util.Format(number, PhoneNumberUtil::NATIONAL, &national);
    return copy_out(national, out, out_size) ? 1 : 0;
}

extern "C" ls_phone_type ls_phone_number_type(const char *e164) {
    if (e164 == nullptr) return LS_PHONE_TYPE_UNKNOWN;
    const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
    PhoneNumber number;
    if (util.Parse(e164, "ZZ", &number) != PhoneNumberUtil::NO_PARSING_ERROR) return LS_PHONE_TYPE_UNKNOWN;
    switch (util.GetNumberType(number)) {
    case PhoneNumberUtil::MOBILE:
        return LS_PHONE_TYPE_MOBILE;
    case PhoneNumberUtil::FIXED_LINE:
        return LS_PHONE_TYPE_FIXED_LINE;
    case PhoneNumberUtil::FIXED_LINE_OR_MOBILE:
        return LS_PHONE_TYPE_FIXED_LINE_OR_MOBILE;
    case PhoneNumberUtil::UNKNOWN:
        return LS_PHONE_TYPE_UNKNOWN;
    default:
        return LS_PHONE_TYPE_OTHER;
    }
}
