/**
 * Where MySQL/MariaDB's multi-byte charsets differ from the WHATWG decoders browsers (and Node)
 * implement: the byte sequence (hex) and the code point (hex) the server converts it to. Read from
 * MariaDB 10.11 by converting every valid sequence to utf32 and comparing with TextDecoder;
 * test/differential/types-charsets.test.ts checks every sequence against the server again. EUC-JP's
 * user-defined rows (0xF5-0xFE, which the server maps to the Private Use Area) are computed, not
 * listed, and so is euckr's UHC extension where the local decoder lacks it (see charset.ts).
 */
export const MULTIBYTE_OVERRIDES: Record<string, string> = {
  big5:
    'a145:2022 a14e:ff64 a15a:fffd a1c2:203e a1c3:fffd a1c5:fffd a1e3:223c a1f2:2641 a1f3:2609 a1fe:fffd a240:fffd a241:ff0f ' +
    'a242:ff3c a244:a5 a246:a2 a247:a3 a2cc:fffd a2ce:fffd c6a1:30fe c6a2:309d c6a3:309e c6a4:3005 c6a5:3041 c6a6:3042 ' +
    'c6a7:3043 c6a8:3044 c6a9:3045 c6aa:3046 c6ab:3047 c6ac:3048 c6ad:3049 c6ae:304a c6af:304b c6b0:304c c6b1:304d c6b2:304e ' +
    'c6b3:304f c6b4:3050 c6b5:3051 c6b6:3052 c6b7:3053 c6b8:3054 c6b9:3055 c6ba:3056 c6bb:3057 c6bc:3058 c6bd:3059 c6be:305a ' +
    'c6bf:305b c6c0:305c c6c1:305d c6c2:305e c6c3:305f c6c4:3060 c6c5:3061 c6c6:3062 c6c7:3063 c6c8:3064 c6c9:3065 c6ca:3066 ' +
    'c6cb:3067 c6cc:3068 c6cd:3069 c6ce:306a c6cf:306b c6d0:306c c6d1:306d c6d2:306e c6d3:306f c6d4:3070 c6d5:3071 c6d6:3072 ' +
    'c6d7:3073 c6d8:3074 c6d9:3075 c6da:3076 c6db:3077 c6dc:3078 c6dd:3079 c6de:307a c6df:307b c6e0:307c c6e1:307d c6e2:307e ' +
    'c6e3:307f c6e4:3080 c6e5:3081 c6e6:3082 c6e7:3083 c6e8:3084 c6e9:3085 c6ea:3086 c6eb:3087 c6ec:3088 c6ed:3089 c6ee:308a ' +
    'c6ef:308b c6f0:308c c6f1:308d c6f2:308e c6f3:308f c6f4:3090 c6f5:3091 c6f6:3092 c6f7:3093 c6f8:30a1 c6f9:30a2 c6fa:30a3 ' +
    'c6fb:30a4 c6fc:30a5 c6fd:30a6 c6fe:30a7 c740:30a8 c741:30a9 c742:30aa c743:30ab c744:30ac c745:30ad c746:30ae c747:30af ' +
    'c748:30b0 c749:30b1 c74a:30b2 c74b:30b3 c74c:30b4 c74d:30b5 c74e:30b6 c74f:30b7 c750:30b8 c751:30b9 c752:30ba c753:30bb ' +
    'c754:30bc c755:30bd c756:30be c757:30bf c758:30c0 c759:30c1 c75a:30c2 c75b:30c3 c75c:30c4 c75d:30c5 c75e:30c6 c75f:30c7 ' +
    'c760:30c8 c761:30c9 c762:30ca c763:30cb c764:30cc c765:30cd c766:30ce c767:30cf c768:30d0 c769:30d1 c76a:30d2 c76b:30d3 ' +
    'c76c:30d4 c76d:30d5 c76e:30d6 c76f:30d7 c770:30d8 c771:30d9 c772:30da c773:30db c774:30dc c775:30dd c776:30de c777:30df ' +
    'c778:30e0 c779:30e1 c77a:30e2 c77b:30e3 c77c:30e4 c77d:30e5 c77e:30e6 c7a1:30e7 c7a2:30e8 c7a3:30e9 c7a4:30ea c7a5:30eb ' +
    'c7a6:30ec c7a7:30ed c7a8:30ee c7a9:30ef c7aa:30f0 c7ab:30f1 c7ac:30f2 c7ad:30f3 c7ae:30f4 c7af:30f5 c7b0:30f6 c7b1:414 ' +
    'c7b2:415 c7b3:401 c7b4:416 c7b5:417 c7b6:418 c7b7:419 c7b8:41a c7b9:41b c7ba:41c c7bb:423 c7bc:424 c7bd:425 ' +
    'c7be:426 c7bf:427 c7c0:428 c7c1:429 c7c2:42a c7c3:42b c7c4:42c c7c5:42d c7c6:42e c7c7:42f c7c8:430 c7c9:431 ' +
    'c7ca:432 c7cb:433 c7cc:434 c7cd:435 c7ce:451 c7cf:436 c7d0:437 c7d1:438 c7d2:439 c7d3:43a c7d4:43b c7d5:43c ' +
    'c7d6:43d c7d7:43e c7d8:43f c7d9:440 c7da:441 c7db:442 c7dc:443 c7dd:444 c7de:445 c7df:446 c7e0:447 c7e1:448 ' +
    'c7e2:449 c7e3:44a c7e4:44b c7e5:44c c7e6:44d c7e7:44e c7e8:44f c7e9:2460 c7ea:2461 c7eb:2462 c7ec:2463 c7ed:2464 ' +
    'c7ee:2465 c7ef:2466 c7f0:2467 c7f1:2468 c7f2:2469 c7f3:2474 c7f4:2475 c7f5:2476 c7f6:2477 c7f7:2478 c7f8:2479 c7f9:247a ' +
    'c7fa:247b c7fb:247c c7fc:247d',
  gb2312:
    'a1a4:30fb a1aa:2015',
  sjis:
    '815f:5c 8160:301c 8161:2016 817c:2212 8191:a2 8192:a3 81ca:ac',
  ujis:
    '8fa2b7:7e a1c0:5c a1c1:301c a1c2:2016 a1dd:2212 a1f1:a2 a1f2:a3 a2cc:ac',
  eucjpms:
    '8fa2c3:ffe4 8ff3f3:2170 8ff3f4:2171 8ff3f5:2172 8ff3f6:2173 8ff3f7:2174 8ff3f8:2175 8ff3f9:2176 8ff3fa:2177 8ff3fb:2178 8ff3fc:2179 8ff3fd:2160 ' +
    '8ff3fe:2161 8ff4a1:2162 8ff4a2:2163 8ff4a3:2164 8ff4a4:2165 8ff4a5:2166 8ff4a6:2167 8ff4a7:2168 8ff4a8:2169 8ff4a9:ff07 8ff4aa:ff02 8ff4ab:3231 ' +
    '8ff4ac:2116 8ff4ad:2121 8ff4ae:70bb 8ff4af:4efc 8ff4b0:50f4 8ff4b1:51ec 8ff4b2:5307 8ff4b3:5324 8ff4b4:fa0e 8ff4b5:548a 8ff4b6:5759 8ff4b7:fa0f ' +
    '8ff4b8:fa10 8ff4b9:589e 8ff4ba:5bec 8ff4bb:5cf5 8ff4bc:5d53 8ff4bd:fa11 8ff4be:5fb7 8ff4bf:6085 8ff4c0:6120 8ff4c1:654e 8ff4c2:663b 8ff4c3:6665 ' +
    '8ff4c4:fa12 8ff4c5:f929 8ff4c6:6801 8ff4c7:fa13 8ff4c8:fa14 8ff4c9:6a6b 8ff4ca:6ae2 8ff4cb:6df8 8ff4cc:6df2 8ff4cd:7028 8ff4ce:fa15 8ff4cf:fa16 ' +
    '8ff4d0:7501 8ff4d1:7682 8ff4d2:769e 8ff4d3:fa17 8ff4d4:7930 8ff4d5:fa18 8ff4d6:fa19 8ff4d7:fa1a 8ff4d8:fa1b 8ff4d9:7ae7 8ff4da:fa1c 8ff4db:fa1d ' +
    '8ff4dc:7da0 8ff4dd:7dd6 8ff4de:fa1e 8ff4df:8362 8ff4e0:fa1f 8ff4e1:85b0 8ff4e2:fa20 8ff4e3:fa21 8ff4e4:8807 8ff4e5:fa22 8ff4e6:8b7f 8ff4e7:8cf4 ' +
    '8ff4e8:8d76 8ff4e9:fa23 8ff4ea:fa24 8ff4eb:fa25 8ff4ec:90de 8ff4ed:fa26 8ff4ee:9115 8ff4ef:fa27 8ff4f0:fa28 8ff4f1:9592 8ff4f2:f9dc 8ff4f3:fa29 ' +
    '8ff4f4:973b 8ff4f5:974d 8ff4f6:9751 8ff4f7:fa2a 8ff4f8:fa2b 8ff4f9:fa2c 8ff4fa:999e 8ff4fb:9ad9 8ff4fc:9b72 8ff4fd:fa2d 8ff4fe:9ed1',
  // The same as WHATWG's euc-kr; listed for Node, whose ICU decoder lacks them.
  euckr: 'a2e6:20ac a2e7:ae',
};
