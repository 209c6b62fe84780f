# Dates as German tables write them: "Mo., 30. Nov. 2026, 19:45".
DATE_FORMAT = "D., j. M Y"
DATETIME_FORMAT = "D., j. M Y, H:i"
MONTH_DAY_FORMAT = "D., j. M"
SHORT_DATE_FORMAT = "j. M Y"
