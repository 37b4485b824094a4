"""pillow_api: ImageFont getsize -> getbbox; fromarray of float arrays -> Pillow 9's raw read."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        # Object detection's visualization_utils.draw_bounding_box_on_image.
        "a font made in a try, and its text's size",
        before="""
            from PIL import ImageFont

            def label(draw, display_str_list):
                try:
                    font = ImageFont.truetype('arial.ttf', 24)
                except IOError:
                    font = ImageFont.load_default()
                heights = [font.getsize(ds)[1] for ds in display_str_list]
                text_width, text_height = font.getsize(display_str_list[0])
                return heights, text_width
        """,
        after="""
            from PIL import ImageFont

            def label(draw, display_str_list):
                try:
                    font = ImageFont.truetype('arial.ttf', 24)
                except IOError:
                    font = ImageFont.load_default()
                heights = [font.getbbox(ds)[2:][1] for ds in display_str_list]
                text_width, text_height = font.getbbox(display_str_list[0])[2:]
                return heights, text_width
        """,
    ),
    Edit(
        # Object detection's create_*_tf_record tests: a dummy JPEG from random floats.
        "a float array read as RGB",
        before="""
            import numpy as np
            from PIL import Image

            def dummy(path):
                a = np.random.rand(256, 256, 3)
                im = Image.fromarray(a, 'RGB')
                im.save(path)
        """,
        after="""
            import numpy as np
            from PIL import Image

            def dummy(path):
                a = np.random.rand(256, 256, 3)
                im = Image.frombuffer('RGB', (a.shape[1], a.shape[0]), a, 'raw', 'RGB', 0, 1)
                im.save(path)
        """,
    ),
    Reported(
        "getsize of a font from elsewhere",
        "from PIL import ImageFont\ndef width(font, text):\n    return font.getsize(text)[0]\n",
        [attention(3, "font.getsize(text)", fix="font.getbbox(text)[2:]")],
    ),
    Reported(
        "getsize with a stroke width",
        "from PIL import ImageFont\nfont = ImageFont.load_default()\n"
        "size = font.getsize('a', stroke_width=2)\n",
        [attention(3, "getsize('a', stroke_width=2)", fix="stroke_width")],
    ),
    Noop("os.path.getsize, and getsize in a file without fonts",
         "import os\nfrom PIL import Image\nn = os.path.getsize(path)\nm = thing.getsize(x)\n"),
    Noop("fromarray of arrays it takes, or of unknown type",
         "import numpy as np\nfrom PIL import Image\n"
         "pixels = np.zeros((4, 4, 3), dtype=np.uint8)\na = Image.fromarray(pixels, 'RGB')\n"
         "def f(data):\n    return Image.fromarray(data, 'RGB')\n"
         "b = Image.fromarray(np.random.rand(4, 4, 3), 'RGB')\n"),
    Noop("a float array of a rank the mode does not take",
         "import numpy as np\nfrom PIL import Image\ncube = np.random.rand(4, 4, 3)\n"
         "image = Image.fromarray(cube, 'L')\n"),
    Edit(
        "resampling filters Pillow 10 removed, in a default argument too",
        before="""
            import numpy as np
            from PIL import Image

            def resize(img, size, resize_mode=Image.ANTIALIAS):
                return img.resize(size, resize_mode), img.resize(size, Image.CUBIC)
        """,
        after="""
            import numpy as np
            from PIL import Image

            def resize(img, size, resize_mode=Image.LANCZOS):
                return img.resize(size, resize_mode), img.resize(size, Image.BICUBIC)
        """,
    ),
    Noop("the filters' names since Pillow 2.7",
         "from PIL import Image\nimg = img.resize(size, Image.LANCZOS)\n"),
    Noop("another library's LINEAR",
         "import cv2\nfrom PIL import Image\nmode = cv2.LINEAR\n"),
]
