#!/bin/sh
# Subset WenQuanYi Micro Hei (Apache-2.0) to the few CJK glyphs the table's chrome needs, so the action
# buttons and winds never fall back to tofu on a machine without a CJK font.  Dev-time only:
#   pip install fonttools brotli && sh web/tools/make_font.sh [/path/to/wqy-microhei.ttc]
set -eu
FONT="${1:-/usr/share/fonts/truetype/wqy/wqy-microhei.ttc}"
OUT="$(dirname "$0")/../fonts/mj-glyphs.woff2"
TEXT="吃碰槓聽胡過眼牌杀猪東南西北中發白莊財神春夏秋冬梅蘭菊竹萬筒條連局餘"
pyftsubset "$FONT" --font-number=0 --text="$TEXT" --flavor=woff2 --output-file="$OUT" \
  --layout-features='' --no-hinting --desubroutinize --name-IDs='*' --name-legacy
echo "wrote $OUT"
